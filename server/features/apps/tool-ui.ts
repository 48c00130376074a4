/**
 * The `ui` option this feature adds to `defineTool`: the tool's `_meta.ui` as the extension's examples write it, checked
 * at start-up and listed by `tools/list` with the flat key hosts built on the early drafts read.
 */
import type { McpUiToolMeta, McpUiToolVisibility } from "@modelcontextprotocol/ext-apps";
import { RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";
import { isPlainObject, type ValidArguments } from "../../mcp/kit";

/** A tool's link to its UI: `_meta.ui` of the extension (`McpUiToolMeta`), for a UI this server serves. */
export interface ToolUi {
  /**
   * The UI shown with the tool's result: `ui://<name>` serves the folder `ui/<name>/` (`server/ui/notes-board/`). A tool
   * only UIs call, with no UI of its own, has none: `{ visibility: ["app"] }`.
   */
  readonly resourceUri?: `ui://${string}`;
  /**
   * Who may call the tool: `["model", "app"]` (the default), or `["app"]` for a tool only the UI calls (a refresh, a
   * button), which hosts keep from the model. Advice to hosts, not access control: such a tool authorizes like any other.
   */
  readonly visibility?: readonly McpUiToolVisibility[];
}

declare module "../../mcp/kit" {
  interface ToolDefinitionOptions<Args = ValidArguments> {
    /**
     * The UI hosts that render MCP Apps show with the tool's result (its `structuredContent`); other clients show the
     * result's text. Listed as the tool's `_meta.ui`; a malformed link, or a UI this server does not serve, stops the
     * start-up.
     * @example ui: { resourceUri: "ui://notes-board" }                       // server/ui/notes-board/
     * @example ui: { resourceUri: "ui://notes-board", visibility: ["app"] }  // called by the board only, shows it
     * @example ui: { visibility: ["app"] }                                   // called by a UI only, shows none
     */
    readonly ui?: ToolUi;
  }
}

const VISIBILITIES: readonly McpUiToolVisibility[] = ["model", "app"];
const KEYS = ["resourceUri", "visibility"];
/** A `ui://` URI: the scheme, then anything but white space. */
const UI_URI = /^ui:\/\/\S+$/;

/** A tool's `ui` once checked: the extension's `_meta.ui`, its visibility filled in. */
export type CheckedUi = McpUiToolMeta & { readonly visibility: McpUiToolVisibility[] };

/** A tool's `ui` option checked; throws naming the tool and the first thing wrong. */
export function checkedToolUi(tool: string, ui: unknown): CheckedUi {
  const fail = (problem: string): never => {
    throw new Error(`Tool "${tool}": ui ${problem}`);
  };
  if (!isPlainObject(ui)) return fail('must be an object such as { resourceUri: "ui://notes-board" }');
  for (const key of Object.keys(ui))
    if (!KEYS.includes(key))
      fail(`has no option "${key}" (known: ${KEYS.join(", ")}; a UI's csp is in its resource.ts)`);
  const { resourceUri, visibility = VISIBILITIES } = ui;
  if (resourceUri === undefined && ui.visibility === undefined)
    fail('names a resourceUri such as "ui://notes-board", or the visibility ["app"] of a tool only UIs call');
  if (resourceUri !== undefined && (typeof resourceUri !== "string" || !UI_URI.test(resourceUri)))
    fail(
      `resourceUri ${JSON.stringify(resourceUri)} is not a ui:// URI such as "ui://notes-board" (server/ui/notes-board/)`,
    );
  if (
    !Array.isArray(visibility) ||
    visibility.length === 0 ||
    new Set(visibility).size !== visibility.length ||
    !visibility.every((who) => VISIBILITIES.includes(who))
  )
    fail(`visibility lists "model", "app" or both, once each`);
  const checked = { visibility: [...(visibility as McpUiToolVisibility[])] };
  return resourceUri === undefined ? checked : { resourceUri: resourceUri as string, ...checked };
}

/** The `_meta` a tool is listed with: its `ui`, and the flat key, the deprecated form hosts built on the early drafts read. */
export const listedToolMeta = (ui: CheckedUi): Readonly<Record<string, unknown>> =>
  ui.resourceUri === undefined ? { ui } : { ui, [RESOURCE_URI_META_KEY]: ui.resourceUri };
