import { defineTool } from "../../../utils/define-tool";

export default defineTool({
  name: "malformed_ui",
  description: "Linked to a UI by a URI no UI can have (a space in it).",
  ui: { resourceUri: "ui://Notes Board" },
  run: () => "never shown",
});
