import { defineTool } from "../../../utils/define-tool";

export default defineTool({
  name: "links_missing_view",
  description: "Linked to a UI no folder provides.",
  ui: { resourceUri: "ui://no-such-view" },
  run: () => "never shown",
});
