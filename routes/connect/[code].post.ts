/** Completes a connect attempt (the form on the page posts here). */
import { expiredLinkPage, htmlPage } from "../../server/examples/connect-page";
import { completeConnectAttempt } from "../../server/examples/connections";

export default defineEventHandler(async (event) => {
  const attempt = await completeConnectAttempt(getRouterParam(event, "code") ?? "");
  if (!attempt) return expiredLinkPage(event);
  return htmlPage(event, "Connected", "<p>Done. Return to your MCP client and continue.</p>");
});
