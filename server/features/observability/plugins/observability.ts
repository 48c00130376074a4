/**
 * Logs and traces for every request: a span per MCP request (started once its message is read, see
 * `tracing.ts`), and once its response is complete, the span ended and the request's line in the log.
 *
 * The request log: one line per HTTP request, written once its response is complete. For an MCP
 * request: its JSON-RPC id, who sent it, the era, the method and target, and how it ended (the
 * result type, or the JSON-RPC error code), with the HTTP status and the duration. Never a token,
 * a sealed state, or an argument (unless NITRO_MCP_LOG_ARGUMENTS turns them on, for development).
 */
import type { H3Event } from "h3";
import { useSettings } from "../../../mcp/config";
import { observeRequests } from "../../../mcp/features";
import type { JsonRpcRequest } from "../../../mcp/jsonrpc";
import { logInfo, type LogFields } from "../../../mcp/log";
import { nameFieldOf } from "../../../mcp/protocol";
import { SETTINGS } from "../settings";
import { endRequestSpan, inRequestSpan, startRequestSpan, withSpan } from "../tracing";

/** The JSON-RPC message, once read: what a refused request still says about itself. */
function messageFields(message: JsonRpcRequest): LogFields {
  const field = nameFieldOf(message.method);
  const target = field && message.params[field];
  return { requestId: message.id, method: message.method, ...(typeof target === "string" && { target: target.slice(0, 200) }) };
}

function requestLogFields(event: H3Event, durationMs: number, withArguments: boolean): LogFields {
  const { mcp, mcpMessage, mcpOutcome, mcpAuth } = event.context;
  const outcome = mcpOutcome?.errorCode !== undefined ? { errorCode: mcpOutcome.errorCode } : mcpOutcome?.resultType ? { resultType: mcpOutcome.resultType } : {};
  return {
    http: `${event.method} ${event.path.split("?")[0]!.slice(0, 200)}`,
    status: event.node.res.statusCode,
    durationMs: Math.round(durationMs * 100) / 100,
    ...(mcpMessage && messageFields(mcpMessage)),
    ...(mcpAuth && { principal: mcpAuth.principal }),
    ...(mcp && { era: mcp.era, protocolVersion: mcp.protocolVersion }),
    ...outcome,
    ...(mcpOutcome?.toolError && { toolError: true }),
    ...(withArguments && mcpMessage && { arguments: mcpMessage.params.arguments }),
  };
}

export default defineNitroPlugin((nitroApp) => {
  const settings = useSettings(SETTINGS);
  observeRequests({ read: startRequestSpan, within: inRequestSpan, step: withSpan });
  nitroApp.hooks.hook("request", (event) => {
    event.context.mcpStartedAt = performance.now();
  });
  nitroApp.hooks.hook("afterResponse", (event) => {
    const status = event.node.res.statusCode;
    endRequestSpan(event, status, event.context.mcpOutcome);
    if (settings.logRequests) logInfo("request", requestLogFields(event, performance.now() - (event.context.mcpStartedAt ?? performance.now()), settings.logArguments));
  });
});
