/** POST /mcp — the MCP endpoint. The middleware has validated the request; this answers it. */
import { respondToRequest } from "../server/mcp/http/respond";

export default defineEventHandler((event) => {
  if (event.context.mcpNotification) {
    setResponseStatus(event, 202);
    return null;
  }
  return respondToRequest(event, event.context.mcp!);
});
