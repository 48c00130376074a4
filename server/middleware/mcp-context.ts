/**
 * The event-context middleware of the MCP endpoint. For `POST /mcp` it checks Origin
 * and Host, authenticates, reads and validates the JSON-RPC envelope, `_meta`, the
 * mirrored headers and `requestState`, and leaves the result on `event.context.mcp`
 * for the route. Anything wrong is answered here, with the spec's code and status.
 */
import { setResponseHeaders, setResponseStatus } from "h3";
import { UnauthorizedError } from "../mcp/auth/unauthorized";
import { useMcpConfig } from "../mcp/config";
import type { McpContext } from "../mcp/context";
import { invalidRequest } from "../mcp/errors";
import { BodyTooLargeError, readBodyText } from "../mcp/http/body";
import { checkOriginAndHost, corsHeaders } from "../mcp/http/origin-guard";
import { requestHeader } from "../mcp/http/request-headers";
import { sendError } from "../mcp/http/respond";
import { parseJsonRpcMessage, type JsonRpcNotification } from "../mcp/jsonrpc";
import { createMcpContext } from "../mcp/request-context";
import { resolvePrincipal } from "../principal";

declare module "h3" {
  interface H3EventContext {
    /** The validated request, for `routes/mcp.post.ts`. */
    mcp?: McpContext;
    /** A validated JSON-RPC notification (answered 202). */
    mcpNotification?: JsonRpcNotification;
  }
}

/** `/mcp`, `/mcp/` and `/mcp?…`: the paths the router sends to routes/mcp*.ts. */
const MCP_PATH = /^\/mcp\/?(?:\?|$)/;

export default defineEventHandler(async (event) => {
  if (!MCP_PATH.test(event.path)) return;
  const config = useMcpConfig();

  const verdict = checkOriginAndHost(event, config);
  if (!verdict.ok) {
    console.warn(`[mcp] 403: ${verdict.reason}`);
    return sendError(event, undefined, invalidRequest(`Forbidden: ${verdict.reason}`, 403));
  }
  const preflight = event.method === "OPTIONS" && requestHeader(event, "access-control-request-method") !== undefined;
  const cors = verdict.corsOrigin
    ? corsHeaders(verdict.corsOrigin, preflight ? (requestHeader(event, "access-control-request-headers") ?? null) : undefined)
    : undefined;
  if (cors) setResponseHeaders(event, cors);
  if (preflight && cors) {
    setResponseStatus(event, 204);
    return null;
  }
  if (event.method !== "POST") return; // routes/mcp.ts answers 405

  let text: string;
  let principal: string;
  try {
    principal = await resolvePrincipal(event);
    const contentType = requestHeader(event, "content-type") ?? "";
    if (!/^application\/json\s*(?:;|$)/i.test(contentType)) {
      return sendError(event, undefined, invalidRequest("Content-Type must be application/json", 415));
    }
    text = await readBodyText(event, config.maxBodyBytes);
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      setResponseHeaders(event, { "www-authenticate": error.challenge });
      setResponseStatus(event, 401);
      return { error: error.reason === "missing_token" ? "invalid_request" : "invalid_token", error_description: error.message };
    }
    if (error instanceof BodyTooLargeError) {
      // An unread remainder must not be parsed as the next request on this connection.
      return sendError(event, undefined, invalidRequest(error.message, 413), error.drained ? undefined : { connection: "close" });
    }
    throw error;
  }

  let id;
  try {
    const message = parseJsonRpcMessage(text);
    if (message.kind === "notification") {
      event.context.mcpNotification = message;
      return;
    }
    id = message.id;
    event.context.mcp = await createMcpContext(event, message, principal);
  } catch (error) {
    return sendError(event, id, error);
  }
});
