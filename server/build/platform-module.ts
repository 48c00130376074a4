/**
 * The platform seam, `#mcp-platform`: where the core gets a request's peer address, its scheme, its body, its deadlines,
 * the state cipher and its log sink. Node's variant (Node itself, the dev server, Vercel's Node runtime) is the default; a
 * platform part's build module points the alias at its own variant.
 */
import { fileURLToPath } from "node:url";
import type { Nitro } from "nitropack";

export function mcpPlatformModule() {
  return (nitro: Nitro) => {
    nitro.options.alias["#mcp-platform"] = fileURLToPath(new URL("../mcp/platform/node.ts", import.meta.url));
  };
}
