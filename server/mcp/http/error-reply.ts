/** Errors as JSON-RPC replies; apart from `respond.ts`, so the steps that refuse before it never load a handler. */
import { send, setResponseHeaders, setResponseStatus, type H3Event } from "h3";
import { ErrorCode, HttpRefusal, McpError, StorageUnavailableError, internalError } from "../errors";
import { errorBody, errorMessage, type RequestId } from "../protocol";
import { logError, logWithReference } from "../log";

/** How an MCP request ended, on `event.context.mcpOutcome` once answered (or refused), for whoever observes requests. */
export interface RequestOutcome {
  readonly resultType?: string;
  /** A tool result with `isError: true` (a failure the model reads, not a protocol error). */
  readonly toolError?: boolean;
  readonly errorCode?: number;
  readonly errorMessage?: string;
}

export interface JsonRpcReply {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: string;
  readonly outcome: RequestOutcome;
}

/**
 * Any thrown value as an `McpError`; an unexpected one is logged with a reference, never echoed.
 * @example const error = errorBody(toMcpError(caught)); // a failure kept for later, as a client may read it
 */
export function toMcpError(error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof StorageUnavailableError) {
    logError(error.message);
    // -32603 with HTTP 503: nothing was half-done, try again.
    return new McpError(ErrorCode.InternalError, "Storage unavailable: try again shortly", undefined, 503);
  }
  return internalError(`Internal error (reference ${logWithReference("internal error", error)})`);
}

export function errorReply(id: RequestId | undefined, caught: unknown): JsonRpcReply {
  const error = toMcpError(caught);
  return {
    status: error.httpStatus,
    headers: error.headers,
    body: errorMessage(id ?? error.requestId, errorBody(error)),
    outcome: { errorCode: error.code, errorMessage: error.message },
  };
}

/**
 * Ends the request with a JSON-RPC error (`id` when it was readable), with the error's own headers and `headers`: for the
 * steps that refuse a request. An `HttpRefusal` is answered as it is.
 * @example
 * if (!session) return sendError(event, undefined, invalidRequest("Unknown session", 404));
 */
export function sendError(
  event: H3Event,
  id: RequestId | undefined,
  error: unknown,
  headers?: Readonly<Record<string, string>>,
): Promise<void> {
  if (error instanceof HttpRefusal) {
    setResponseStatus(event, error.status);
    setResponseHeaders(event, { ...error.headers, ...headers });
    return send(event, error.body);
  }
  const reply = errorReply(id, error);
  event.context.mcpOutcome = reply.outcome;
  setResponseStatus(event, reply.status);
  setResponseHeaders(event, { "content-type": "application/json", ...reply.headers, ...headers });
  return send(event, reply.body);
}
