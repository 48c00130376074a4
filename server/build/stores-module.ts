/**
 * Build time: the stores this build can run on, as `#mcp-stores`. Each folder of `server/storage/` is a store: its
 * `<platform>.ts` (`node.ts` for the Node builds; a platform part names its own) default-exports the store, and each port
 * file beside it (`bus.ts`, `counter.ts`) makes that port from the store's client. Adding a store is adding a folder.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Nitro } from "nitropack";

const STORAGE = "server/storage";
const PORTS = ["bus", "counter"] as const;

/** Each store with a file for `platform`: that file, and its port files. */
export function storeFiles(rootDir: string, platform = "node") {
  const dir = join(rootDir, STORAGE);
  const folders = existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : [];
  return folders
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, `${platform}.ts`)))
    .map(({ name }) => ({
      definition: join(dir, name, `${platform}.ts`),
      ports: Object.fromEntries(
        PORTS.map((port) => [port, join(dir, name, `${port}.ts`)]).filter(([, file]) => existsSync(file!)),
      ) as Partial<Record<(typeof PORTS)[number], string>>,
    }));
}

/** `#mcp-stores` for `platform`: `stores`, each `{ definition, ports }`. */
export function storesModule(rootDir: string, platform = "node"): string {
  const lines: string[] = [];
  const stores = storeFiles(rootDir, platform).map(({ definition, ports }, index) => {
    lines.push(`import store${index} from ${JSON.stringify(definition)};`);
    const made = Object.entries(ports).map(([port, file]) => {
      lines.push(`import ${port}${index} from ${JSON.stringify(file)};`);
      return `${port}: ${port}${index}`;
    });
    return `{ definition: store${index}, ports: { ${made.join(", ")} } }`;
  });
  lines.push(`export const stores = [${stores.join(", ")}];`);
  return lines.join("\n");
}

export function mcpStoresModule() {
  return (nitro: Nitro) => {
    nitro.options.virtual["#mcp-stores"] = () => storesModule(nitro.options.rootDir);
  };
}
