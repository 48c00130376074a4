/**
 * What tool files and UI folders use of the MCP Apps feature, as `#mcp-apps` (package.json `imports`): a tool's link to its
 * UI, whether the caller renders UIs, and the type of a UI folder's `resource.ts`. The app reaches this feature only here.
 */
import type {
  McpUiResourceCsp,
  McpUiResourcePermissions,
  McpUiToolMeta,
  McpUiToolVisibility,
} from "@modelcontextprotocol/ext-apps";
import { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";
import type { McpContext } from "../../mcp/context";

/** A UI's name: its folder's name under `ui/`, and the host of its `ui://` URI. */
export const UI_NAME = /^[a-z0-9][a-z0-9-]*$/;

/** The URI a UI is served at: `ui://notes-board`. */
export const uiResourceUri = (name: string): string => `ui://${name}`;

const VISIBILITIES: readonly McpUiToolVisibility[] = ["model", "app"];

export interface UiLinkOptions {
  /**
   * Who may call the tool: `["model", "app"]` (the default), or `["app"]` for a tool only the UI calls (a refresh, a
   * button), which hosts keep from the model. Advice to hosts, not access control: such a tool authorizes like any other.
   */
  visibility?: readonly McpUiToolVisibility[];
}

/**
 * A tool's `_meta` linking it to the UI in `ui/<name>/`: hosts that render MCP Apps show that UI with the tool's result
 * (its `structuredContent`), others show the result's text. Throws at start-up on a malformed name or visibility.
 * @example
 * // server/tools/notes_board.ts
 * import { uiLink } from "#mcp-apps";
 * export default defineTool({
 *   name: "notes_board",
 *   description: "Shows the notes on a board.",
 *   _meta: uiLink("notes-board"),                          // server/ui/notes-board/
 *   run: async () => ({ content: [{ type: "text", text: "3 notes" }], structuredContent: { notes } }),
 * });
 */
export function uiLink(name: string, options: UiLinkOptions = {}): Record<string, unknown> {
  if (!UI_NAME.test(name))
    throw new Error(`uiLink("${name}"): a UI's name is its folder's under ui/: lower-case letters, digits and -`);
  const visibility = options.visibility ?? VISIBILITIES;
  if (
    visibility.length === 0 ||
    new Set(visibility).size !== visibility.length ||
    !visibility.every((who) => VISIBILITIES.includes(who))
  )
    throw new Error(`uiLink("${name}"): visibility lists "model", "app" or both, once each`);
  const resourceUri = uiResourceUri(name);
  const ui: McpUiToolMeta = { resourceUri, visibility: [...visibility] };
  // The flat key is the deprecated form that hosts built on the early drafts read.
  return { ui, [RESOURCE_URI_META_KEY]: resourceUri };
}

/**
 * True when this request's client renders MCP Apps: it declares the `io.modelcontextprotocol/ui` extension with the MCP
 * App MIME type in its capabilities. A tool can then keep its text short and leave the details to the UI. 2025-era
 * clients declare capabilities only when they connect, which this stateless server does not keep: false for them.
 * @example
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
