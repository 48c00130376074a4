import type { UiResourceOptions } from "#mcp-apps";

export default { title: "Greeting card", prefersBorder: false } satisfies UiResourceOptions;
