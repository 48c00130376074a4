/** Any other verb on /mcp: 2026-07-28 has no GET stream and no sessions to DELETE. */
export default defineEventHandler((event) => {
  setResponseHeaders(event, { allow: "POST", "content-type": "application/json" });
  setResponseStatus(event, 405);
  return JSON.stringify({
    jsonrpc: "2.0",
    error: { code: -32600, message: `Method ${event.method} not allowed on the MCP endpoint: use POST` },
  });
});
