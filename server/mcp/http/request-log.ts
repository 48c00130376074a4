/**
 * The request log: one line per HTTP request, written once its response is complete. For an MCP
 * request: its JSON-RPC id, who sent it, the era, the method and target, and how it ended (the
 * result type, or the JSON-RPC error code), with the HTTP status and the duration. Never a token,
 * a sealed state, or an argument (unless NITRO_MCP_LOG_ARGUMENTS turns them on, for development).
 */
import type { H3Event } from "h3";
import type { LogFields } from "../log";
import type { JsonRpcRequest } from "../jsonrpc";
import { nameFieldOf } from "../protocol";

/** How an MCP request ended, as the dispatcher or a refusing step recorded it. */
export interface RequestOutcome {
  readonly resultType?: string;
  /** A tool result with `isError: true` (a failure the model reads, not a protocol error). */
  readonly toolError?: boolean;
  readonly errorCode?: number;
  readonly errorMessage?: string;
}

export function recordOutcome(event: H3Event, outcome: RequestOutcome): void {
  event.context.mcpOutcome = outcome;
}

/** The JSON-RPC message, once read: what a refused request still says about itself. */
function messageFields(message: JsonRpcRequest): LogFields {
  const field = nameFieldOf(message.method);
  const target = field && message.params[field];
  return { requestId: message.id, method: message.method, ...(typeof target === "string" && { target: target.slice(0, 200) }) };
}

export function requestLogFields(event: H3Event, durationMs: number, withArguments: boolean): LogFields {
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
