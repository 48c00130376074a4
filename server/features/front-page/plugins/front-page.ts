/** GET /mcp from a browser (its Accept prefers text/html): the front page, through the core's GET seam. */
import { appendResponseHeader } from "h3";
import { sendFrontPage } from "../front-page";
import { prefersHtml } from "../prefers-html";
import { addGetResponder, requestHeader } from "../../../mcp/kit";

export default defineNitroPlugin(() => {
  addGetResponder((event) => {
    appendResponseHeader(event, "vary", "Accept"); // the answer depends on it: keep caches from mixing the front page and the 405
    return prefersHtml(requestHeader(event, "accept")) ? sendFrontPage(event) : undefined;
  });
});
