/**
 * Any other verb on /mcp. After the Origin/Host guard (which also answers an allowed CORS
 * preflight), 405: 2026-07-28 has no GET stream and no sessions to DELETE.
 */
import { guardOriginAndHost } from "../server/mcp/http/guard";

export default defineEventHandler({
  onRequest: [guardOriginAndHost],
  handler(event) {
    setResponseHeaders(event, { allow: "POST", "content-type": "application/json" });
    setResponseStatus(event, 405);
    return JSON.stringify({
      jsonrpc: "2.0",
      error: { code: -32600, message: `Method ${event.method} not allowed on the MCP endpoint: use POST` },
    });
  },
});
