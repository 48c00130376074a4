/**
 * Any other verb on /mcp. After the Origin/Host guard (which also answers an allowed CORS
 * preflight): the front page for a browser's GET (its Accept prefers text/html), else 405:
 * 2026-07-28 has no GET stream and no sessions to DELETE.
 */
import { guardOriginAndHost } from "../server/mcp/http/guard";
import { requestHeader } from "../server/mcp/http/request-headers";
import { sendFrontPage } from "../server/pages/front-page";
import { prefersHtml } from "../server/pages/prefers-html";

export default defineEventHandler({
  onRequest: [guardOriginAndHost],
  handler(event) {
    if (event.method === "GET") {
      appendResponseHeader(event, "vary", "Accept"); // the answer to a GET depends on it: keep caches from mixing the two
      if (prefersHtml(requestHeader(event, "accept"))) return sendFrontPage(event);
    }
    setResponseHeaders(event, { allow: "POST", "content-type": "application/json" });
    setResponseStatus(event, 405);
    return JSON.stringify({
      jsonrpc: "2.0",
      error: { code: -32600, message: `Method ${event.method} not allowed on the MCP endpoint: use POST` },
    });
  },
});
