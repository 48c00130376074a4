/** The page a URL-mode elicitation of `connect_account` opens. */
import { getConnectAttempt } from "../../server/connections";
import { connectPage, escapeHtml } from "../../server/connect-page";

export default defineEventHandler(async (event) => {
  const attempt = await getConnectAttempt(getRouterParam(event, "code") ?? "");
  setResponseHeader(event, "content-type", "text/html; charset=utf-8");
  if (!attempt) {
    setResponseStatus(event, 404);
    return connectPage("This link has expired", "<p>Start again from your MCP client.</p>");
  }
  if (attempt.done) return connectPage("Already connected", "<p>You can close this tab and return to your client.</p>");
  return connectPage(
    "Connect your demo account",
    `<p>Press the button to link a demo account to <strong>${escapeHtml(attempt.principal)}</strong>.</p>
     <form method="post"><button type="submit">Connect</button></form>`,
  );
});
