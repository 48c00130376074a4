import type { UiResourceOptions } from "#mcp-apps";

export default {
  title: "Fixture view",
  description: "A view declaring a little of everything",
  csp: { connectDomains: ["https://api.example.com"], resourceDomains: ["https://*.cdn.example.com:8443"] },
  permissions: { clipboardWrite: {} },
  prefersBorder: false,
} satisfies UiResourceOptions;
