/** The page a URL-mode elicitation of `connect_account` opens, behind the Host guard (a rebinding page names itself in Host). */
import { expiredLinkPage, htmlPage } from "../../server/examples/connect-page";
import { getConnectAttempt } from "../../server/examples/connections";
import { escapeHtml, guardHost } from "../../server/mcp/kit";

export default defineEventHandler({
  onRequest: [guardHost],
  async handler(event) {
    const attempt = await getConnectAttempt(getRouterParam(event, "code") ?? "");
    if (!attempt) return expiredLinkPage(event);
    if (attempt.done)
      return htmlPage(event, "Already connected", "<p>You can close this tab and return to your client.</p>");
    return htmlPage(
      event,
      "Connect your demo account",
      `<p>Press the button to link a demo account to <strong>${escapeHtml(attempt.principal)}</strong>.</p>
     <form method="post"><button type="submit">Connect</button></form>`,
    );
  },
});
