/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`), in both eras, when this server serves a UI: each tool's `ui`
 * option checked (a malformed one, or a UI the server does not serve, stops the start-up: hosts would show an empty
 * frame) and listed as its `_meta`. A server serving no UI (a build without `ui/` folders, or the in-process test server,
 * which builds none) declares nothing and lists no link; each option's shape is checked all the same.
 */
import { EXTENSION_ID } from "@modelcontextprotocol/ext-apps/server";
import { declareExtension, describeEntries, registry, type Entry } from "../../../mcp/kit";
import { servedUis } from "../served-uis";
import { checkedToolUi, listedToolMeta } from "../tool-ui";

export default defineNitroPlugin(() => {
  const listed = new Map<Entry, Readonly<Record<string, unknown>>>();
  const served = servedUis();
  for (const tool of registry().tools) {
    if (tool.options.ui === undefined) continue;
    const ui = checkedToolUi(tool.descriptor.name, tool.options.ui);
    if (served.size && ui.resourceUri !== undefined && !served.has(ui.resourceUri))
      throw new Error(
        `Tool "${tool.descriptor.name}" links the UI ${ui.resourceUri}, which this build does not serve (its UIs: ${[...served].join(", ")}): add the folder under ui/, or fix the name`,
      );
    listed.set(tool, listedToolMeta(ui));
  }
  if (!served.size) return;
  describeEntries((entry) => listed.get(entry));
  declareExtension(EXTENSION_ID, {}, { adapted: true });
});
