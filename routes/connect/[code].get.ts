/** The page a URL-mode elicitation of `connect_account` opens, behind the same Host and Origin guard as /mcp. */
import { expiredLinkPage, htmlPage } from "../../server/examples/connect-page";
import { getConnectAttempt } from "../../server/examples/connections";
import { escapeHtml, guardOriginAndHost } from "../../server/mcp/kit";

export default defineEventHandler({
  onRequest: [guardOriginAndHost],
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
