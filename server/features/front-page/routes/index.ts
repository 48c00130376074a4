/**
 * / — the front page: this server's name, what it offers, and how to connect to it. GET and HEAD
 * (monitors probe with HEAD); any other method gets 405.
 */
import { sendFrontPage } from "../front-page";
import { guardOriginAndHost } from "../../../mcp/kit";

export default defineEventHandler({
  // The page shows a URL built from Host: only a Host this server answers to gets that far.
  onRequest: [guardOriginAndHost],
  handler(event) {
    if (event.method === "GET" || event.method === "HEAD") return sendFrontPage(event);
    setResponseHeaders(event, { allow: "GET, HEAD", "content-type": "application/json" });
    setResponseStatus(event, 405);
    return JSON.stringify({ error: "Method not allowed", allow: "GET, HEAD" });
  },
});
