/** Completes a connect attempt (the form on the page posts here). */
import { completeConnectAttempt } from "../../server/connections";
import { connectPage } from "../../server/connect-page";

export default defineEventHandler(async (event) => {
  const attempt = await completeConnectAttempt(getRouterParam(event, "code") ?? "");
  setResponseHeader(event, "content-type", "text/html; charset=utf-8");
  if (!attempt) {
    setResponseStatus(event, 404);
    return connectPage("This link has expired", "<p>Start again from your MCP client.</p>");
  }
  return connectPage("Connected", "<p>Done. Return to your MCP client and continue.</p>");
});
