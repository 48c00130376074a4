import { clientRendersUi } from "#mcp-apps";
import { defineTool } from "../../../utils/define-tool";

export default defineTool({
  name: "show_fixture",
  description: "Shows the fixture view; says whether this request's client renders UIs.",
  ui: { resourceUri: "ui://fixture-view" },
  run: (_args, mcp) => ({
    content: [{ type: "text", text: clientRendersUi(mcp) ? "shown in the view" : "text only" }],
    structuredContent: { rendersUi: clientRendersUi(mcp) },
  }),
});
