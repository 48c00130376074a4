/**
 * For the Cloudflare build (preset `cloudflare-durable`): the Worker entry is
 * `server/cloudflare/entry.ts`, which bounds request bodies and gives the Durable Object its
 * atomic operations, around Nitro's own entry.
 */
import { fileURLToPath } from "node:url";
import type { Nitro } from "nitropack";

export function mcpCloudflareModule() {
  return (nitro: Nitro) => {
    if (nitro.options.preset !== "cloudflare-durable") return;
    nitro.options.entry = fileURLToPath(new URL("../cloudflare/entry.ts", import.meta.url));
  };
}
