/** A fixed resource: static text, cacheable by anyone for an hour. */
export default defineResource({
  uri: "info://about",
  name: "about",
  title: "About this server",
  description: "What this server is and what it can do.",
  mimeType: "text/markdown",
  cache: { ttlMs: 3_600_000, cacheScope: "public" },
  read: () =>
    "# MCP edge template\n\nA stateless MCP server (protocol 2026-07-28) with example notes. " +
    "Try the tools `list_notes`, `delete_note` (asks for confirmation) and `wizard` (three questions).",
});
