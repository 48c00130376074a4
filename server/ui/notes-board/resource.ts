import type { UiResourceOptions } from "#mcp-apps";

// No csp: the board reaches nothing outside the document; everything comes through the host.
export default {
  title: "Notes board",
  description: "The notes as cards, each with a button that deletes it once the person confirms.",
  prefersBorder: true,
} satisfies UiResourceOptions;
