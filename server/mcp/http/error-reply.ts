/** Errors as JSON-RPC replies; apart from the dispatcher, so the steps that refuse before it never load a handler. */
import { send, setResponseHeaders, setResponseStatus, type H3Event } from "h3";
import { StorageUnavailableError } from "../atomic-store";
import { McpError, internalError, storageUnavailable } from "../errors";
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
  readonly body: string;
  readonly outcome: RequestOutcome;
}

/** Any thrown value as an `McpError`; an unexpected one is logged with a reference, never echoed. */
export function toMcpError(error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof StorageUnavailableError) {
    logError(error.message);
    return storageUnavailable();
  }
  return internalError(`Internal error (reference ${logWithReference("internal error", error)})`);
}

export function errorReply(id: RequestId | undefined, caught: unknown): JsonRpcReply {
  const error = toMcpError(caught);
  return {
    status: error.httpStatus,
    body: errorMessage(id ?? error.requestId, errorBody(error)),
    outcome: { errorCode: error.code, errorMessage: error.message },
  };
}

/** Ends the request with a JSON-RPC error (`id` when it was readable): for the steps that refuse a request. */
export function sendError(
  event: H3Event,
  id: RequestId | undefined,
  error: unknown,
  headers?: Record<string, string>,
): Promise<void> {
  const reply = errorReply(id, error);
  event.context.mcpOutcome = reply.outcome;
  setResponseStatus(event, reply.status);
  setResponseHeaders(event, { "content-type": "application/json", ...headers });
  return send(event, reply.body);
}

declare module "h3" {
  interface H3EventContext {
    mcpOutcome?: RequestOutcome;
  }
}
