/** POST /mcp — the MCP endpoint. The middleware has validated the request; this answers it. */
import { respondToRequest } from "../server/mcp/http/respond";

export default defineEventHandler((event) => {
  if (event.context.mcpNotification) {
    setResponseStatus(event, 202);
    return null;
  }
  // The middleware validated every request this route can receive and left its context.
  if (!event.context.mcp) throw createError({ statusCode: 500, statusMessage: "MCP request context missing" });
  return respondToRequest(event, event.context.mcp);
});
