import { defineTool } from "../../../utils/define-tool";

/** Only the view calls it (a refresh button): hosts keep it from the model; the server serves it like any tool. */
export default defineTool({
  name: "refresh_fixture",
  description: "Refreshes the fixture view.",
  ui: { resourceUri: "ui://fixture-view", visibility: ["app"] },
  run: () => ({ content: [{ type: "text", text: "refreshed" }], structuredContent: { refreshed: true } }),
});
