/**
 * Picks the storage drivers a build may contain, from the build's preset, so an edge bundle never
 * carries a driver it cannot run (ioredis on Workers, say): `#mcp-storage-driver` is an alias for
 * `server/storage/drivers.cloudflare.ts` or `server/storage/drivers.node.ts`. The choice among the
 * drivers of a build is made at run time from the environment, in `server/plugins/storage.ts`.
 */
import { fileURLToPath } from "node:url";
import type { Nitro } from "nitropack";

const drivers = (target: "node" | "cloudflare") => fileURLToPath(new URL(`../storage/drivers.${target}.ts`, import.meta.url));

export function mcpStorageModule() {
  return (nitro: Nitro) => {
    nitro.options.alias["#mcp-storage-driver"] = drivers(nitro.options.preset.startsWith("cloudflare") ? "cloudflare" : "node");
  };
}
