/**
 * Per preset, the state cipher (and the stores: `stores-module.ts`), so a bundle never carries code its runtime cannot run.
 * The two ciphers (`node:crypto`, Web Crypto) produce the same bytes, so a fleet mixing them opens every state. The
 * Cloudflare build's Worker entry is `server/cloudflare/entry.ts`, around Nitro's own (its header says why).
 */
import { fileURLToPath } from "node:url";
import type { Nitro } from "nitropack";

const file = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/** Presets that run on Node itself: `node-server` and friends, the dev server, Vercel's Node runtime. */
const runsOnNode = (preset: string) => preset.startsWith("node") || preset.startsWith("nitro-") || preset === "vercel";

export function mcpPlatformModule() {
  return (nitro: Nitro) => {
    const preset = nitro.options.preset;
    nitro.options.alias["#mcp-state-cipher"] = file(`../mcp/state/cipher.${runsOnNode(preset) ? "node" : "web"}.ts`);
    if (preset === "cloudflare-durable") nitro.options.entry = file("../cloudflare/entry.ts");
  };
}
