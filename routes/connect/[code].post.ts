/** Completes a connect attempt (the form on the page posts here); another site's form cannot, nor a rebinding page. */
import { expiredLinkPage, htmlPage, isSameOriginPost } from "../../server/examples/connect-page";
import { completeConnectAttempt } from "../../server/examples/connections";
import { guardHost } from "../../server/mcp/kit";

export default defineEventHandler({
  onRequest: [guardHost],
  async handler(event) {
    if (!isSameOriginPost(event))
      return htmlPage(event, "Not allowed", "<p>This form can only be sent from its own page.</p>", 403);
    const attempt = await completeConnectAttempt(getRouterParam(event, "code") ?? "");
    if (!attempt) return expiredLinkPage(event);
    return htmlPage(event, "Connected", "<p>Done. Return to your MCP client and continue.</p>");
  },
});
