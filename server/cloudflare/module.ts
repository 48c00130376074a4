/**
 * The Cloudflare build (`NITRO_PRESET=cloudflare-durable`, `nitro.config.ts` beside this file): the Worker entry, the
 * Workers variant of `#mcp-platform`, the stores with a `workers.ts`, and the Durable Object's methods they export.
 */
import { fileURLToPath } from "node:url";
import type { Nitro } from "nitropack";
import { storeFiles, storesModule } from "../build/stores-module";

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/** `#mcp-durable-methods`: the `durableMethods` every module of this build's stores exports. */
function durableMethodsModule(rootDir: string): string {
  const files = storeFiles(rootDir, "workers").flatMap(({ definition, ports }) => [
    definition,
    ...Object.values(ports),
  ]);
  return [
    ...files.map((file, index) => `import * as m${index} from ${JSON.stringify(file)};`),
    `export const durableMethods = [${files.map((_, index) => `m${index}`).join(", ")}].flatMap((m) => (m.durableMethods ? [m.durableMethods] : []));`,
  ].join("\n");
}

export function cloudflareModule() {
  return (nitro: Nitro) => {
    if (!nitro.options.preset.startsWith("cloudflare")) return;
    nitro.options.alias["#mcp-platform"] = here("./platform.ts");
    nitro.options.virtual["#mcp-stores"] = () => storesModule(nitro.options.rootDir, "workers");
    nitro.options.virtual["#mcp-durable-methods"] = () => durableMethodsModule(nitro.options.rootDir);
    if (nitro.options.preset === "cloudflare-durable") nitro.options.entry = here("./entry.ts");
  };
}
