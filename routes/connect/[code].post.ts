/** Completes a connect attempt (the form on the page posts here). */
import { expiredLinkPage, htmlPage } from "../../server/connect-page";
import { completeConnectAttempt } from "../../server/connections";

export default defineEventHandler(async (event) => {
  const attempt = await completeConnectAttempt(getRouterParam(event, "code") ?? "");
  if (!attempt) return expiredLinkPage(event);
  return htmlPage(event, "Connected", "<p>Done. Return to your MCP client and continue.</p>");
});
