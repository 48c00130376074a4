/**
 * What the app's code uses of the MCP Apps feature, as `#mcp-apps` (package.json `imports`): whether the caller renders
 * UIs, for a tool's handler, single-use tokens for what a UI confirms itself, and the type of a UI folder's `resource.ts`. A tool links its UI with the `ui` option the
 * feature declares (tool-ui.ts), not with anything from here.
 */
import type { McpUiResourceCsp, McpUiResourcePermissions } from "@modelcontextprotocol/ext-apps";
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import type { McpContext } from "../../mcp/kit";

export { issueToken, redeemToken } from "./tokens";

/**
 * True when this request's client renders MCP Apps: it declares the `io.modelcontextprotocol/ui` extension with the MCP
 * App MIME type in its capabilities. A tool can then keep its text short and leave the details to the UI. A 2025-era
 * client declares them at `initialize`, and its session carries them to each later request: the same answer in both eras.
 * @example
 * // server/tools/notes_board.ts
 * import { clientRendersUi } from "#mcp-apps";
 * run: async (args, mcp) => {
 *   const notes = await listNotes();
 *   const text = clientRendersUi(mcp) ? `${notes.length} notes, shown on the board.` : notes.map(line).join("\n");
 *   return { content: [{ type: "text", text }], structuredContent: { notes } };
 * },
 */
export function clientRendersUi(mcp: Pick<McpContext, "clientCapabilities">): boolean {
  const extensions = mcp.clientCapabilities.extensions;
  if (typeof extensions !== "object" || extensions === null) return false;
  const ui = (extensions as Record<string, unknown>)[EXTENSION_ID];
  if (typeof ui !== "object" || ui === null) return false;
  const { mimeTypes } = ui as { mimeTypes?: unknown };
  return Array.isArray(mimeTypes) && mimeTypes.includes(RESOURCE_MIME_TYPE);
}

/**
 * What a UI folder's optional `resource.ts` default-exports: how its `ui://` resource is listed, and what the host lets
 * the UI do. Everything is checked when the server starts. Nothing here may depend on a request: the document and its
 * metadata are the same for every caller (hosts cache and review them).
 * @example
 * // server/ui/notes-board/resource.ts
 * import type { UiResourceOptions } from "#mcp-apps";
 * export default { title: "Notes board", prefersBorder: true } satisfies UiResourceOptions;
 */
export interface UiResourceOptions {
  /** The listing's title, e.g. "Notes board". */
  title?: string;
  description?: string;
  /**
   * Origins the UI may reach, each `https://host` or `wss://host` (a port, or a leading `*.`, allowed; `http`/`ws` for
   * loopback only), no path. Leave them out when the UI needs none: hosts then let it reach nothing.
   */
  csp?: McpUiResourceCsp;
  /** Browser features the UI asks for, each as `{}`: `camera`, `microphone`, `geolocation`, `clipboardWrite`. */
  permissions?: McpUiResourcePermissions;
  /** A dedicated sandbox origin, in the host's own format (e.g. `<hash>.claudemcpcontent.com`): only if you need one. */
  domain?: string;
  /** Whether the host draws a border and background around the UI (default: true). */
  prefersBorder?: boolean;
}
