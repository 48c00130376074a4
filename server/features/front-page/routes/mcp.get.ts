/**
 * GET /mcp (more specific than the core's `routes/mcp.ts`, which answers every other verb): after the
 * Origin/Host guard, the front page for a browser (its Accept prefers text/html), else the core's 405.
 */
import { guardOriginAndHost } from "../../../mcp/http/guard";
import { refuseMethod } from "../../../mcp/http/not-allowed";
import { requestHeader } from "../../../mcp/request-meta";
import { sendFrontPage } from "../front-page";
import { prefersHtml } from "../prefers-html";

export default defineEventHandler({
  onRequest: [guardOriginAndHost],
  handler(event) {
    appendResponseHeader(event, "vary", "Accept"); // the answer depends on it: keep caches from mixing the two
    return prefersHtml(requestHeader(event, "accept")) ? sendFrontPage(event) : refuseMethod(event);
  },
});
