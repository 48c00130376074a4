/** The Cloudflare build's Worker entry is `server/cloudflare/entry.ts`, around Nitro's own (its header says why). */
import { fileURLToPath } from "node:url";
import type { Nitro } from "nitropack";

export function mcpCloudflareModule() {
  return (nitro: Nitro) => {
    if (nitro.options.preset !== "cloudflare-durable") return;
    nitro.options.entry = fileURLToPath(new URL("../cloudflare/entry.ts", import.meta.url));
  };
}
