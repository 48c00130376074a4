/**
 * Build time: the stores this build can run on, as `#mcp-stores`. Each folder of `server/storage/` is a store: its
 * `node.ts` (Node and Vercel builds) or `workers.ts` (Workers builds) default-exports the store, and each port file beside
 * it (`bus.ts`, `counter.ts`) makes that port from the store's client. A Workers build also gathers the Durable Object's
 * methods every module of its stores exports as `durableMethods`, for the Worker entry. Adding a store is adding a folder.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Nitro } from "nitropack";

const STORAGE = "server/storage";
const PORTS = ["bus", "counter"] as const;

/** The platform a preset runs on: Workers, or Node (the dev server, Node itself, Vercel's Node runtime). */
export const platformOf = (preset: string): "workers" | "node" =>
  preset.startsWith("cloudflare") ? "workers" : "node";

/** `#mcp-stores` for `platform`: `stores`, each `{ definition, ports }`, and the Durable Object's `durableMethods`. */
export function storesModule(rootDir: string, platform: "workers" | "node"): string {
  const dir = join(rootDir, STORAGE);
  const folders = existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).filter(
        (entry) => entry.isDirectory() && existsSync(join(dir, entry.name, `${platform}.ts`)),
      )
    : [];
  const lines: string[] = [];
  const stores: string[] = [];
  const modules: string[] = [];
  for (const [index, { name }] of folders.entries()) {
    lines.push(`import * as store${index} from ${JSON.stringify(join(dir, name, `${platform}.ts`))};`);
    modules.push(`store${index}`);
    const ports: string[] = [];
    for (const port of PORTS) {
      const file = join(dir, name, `${port}.ts`);
      if (!existsSync(file)) continue;
      lines.push(`import * as ${port}${index} from ${JSON.stringify(file)};`);
      ports.push(`${port}: ${port}${index}.default`);
      modules.push(`${port}${index}`);
    }
    stores.push(`{ definition: store${index}.default, ports: { ${ports.join(", ")} } }`);
  }
  lines.push(`export const stores = [${stores.join(", ")}];`);
  lines.push(
    `export const durableMethods = [${modules.join(", ")}].flatMap((m) => (m.durableMethods ? [m.durableMethods] : []));`,
  );
  return lines.join("\n");
}

export function mcpStoresModule() {
  return (nitro: Nitro) => {
    nitro.options.virtual["#mcp-stores"] = () => storesModule(nitro.options.rootDir, platformOf(nitro.options.preset));
  };
}
