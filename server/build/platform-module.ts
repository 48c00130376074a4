/**
 * Picks, from the build's preset, the implementations that differ between platforms, so a bundle
 * never carries code its runtime cannot run:
 * - `#mcp-storage-driver`: the storage drivers a build may contain (`server/storage/drivers.node.ts`,
 *   or `drivers.cloudflare.ts` without ioredis); the choice among them is made at run time from the
 *   environment, in `server/plugins/storage.ts`;
 * - `#mcp-state-cipher`: the AES-GCM and HKDF behind `requestState` (`server/mcp/state/cipher.node.ts`,
 *   synchronous `node:crypto`, on Node-based presets; `cipher.web.ts`, Web Crypto, everywhere else).
 *   Both produce the same bytes, so a fleet mixing them (a rolling deploy) opens every state. */
import { fileURLToPath } from "node:url";
import type { Nitro } from "nitropack";

const file = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/** Presets that run on Node itself: `node-server` and friends, the dev server, Vercel's Node runtime. */
const runsOnNode = (preset: string) => preset.startsWith("node") || preset.startsWith("nitro-") || preset === "vercel";

export function mcpPlatformModule() {
  return (nitro: Nitro) => {
    const preset = nitro.options.preset;
    nitro.options.alias["#mcp-storage-driver"] = file(`../storage/drivers.${preset.startsWith("cloudflare") ? "cloudflare" : "node"}.ts`);
    nitro.options.alias["#mcp-state-cipher"] = file(`../mcp/state/cipher.${runsOnNode(preset) ? "node" : "web"}.ts`);
  };
}
