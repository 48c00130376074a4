/** Any verb but POST on /mcp: 405, `Allow: POST`, as 2026-07-28 has no GET stream and no sessions to DELETE. */
import { setResponseHeaders, setResponseStatus, type H3Event } from "h3";

export function refuseMethod(event: H3Event): string {
  setResponseHeaders(event, { allow: "POST", "content-type": "application/json" });
  setResponseStatus(event, 405);
  return JSON.stringify({
    jsonrpc: "2.0",
    error: { code: -32600, message: `Method ${event.method} not allowed on the MCP endpoint: use POST` },
  });
}
