/** Protocol errors: an `McpError` reaches the client as it is; anything else is logged and answered -32603, never leaked. */
import { clip } from "./internal/text";
import type { ClientCapabilities, InputRequest, RequestId } from "./protocol";

/** Longest error message sent: messages may quote what the client sent, never all of it. */
const MAX_MESSAGE = 500;

/**
 * The JSON-RPC error codes the core answers with: JSON-RPC's own, those MCP 2026-07-28 defines, and its own `LimitExceeded`
 * (an adapter for an older revision answers with that revision's own too, such as -32002).
 * @example throw new McpError(ErrorCode.InvalidRequest, "Request cancelled");
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  /**
   * A caller over one of its limits (a rate, its share of what callers share). Neither JSON-RPC nor MCP defines one, and MCP
   * 2026-07-28 reserves -32020 to -32099 for its own codes, so it lies outside JSON-RPC's reserved range (-32768 to -32000),
   * as the spec asks of a new code: HTTP's 429, the same in every revision and in the body as in the status line.
   */
  LimitExceeded: 429,
} as const;

/**
 * An error the client gets as it is: its JSON-RPC code, message (clipped) and `data`, with the answer's HTTP status
 * and headers.
 * @example
 * throw new McpError(ErrorCode.MethodNotFound, "resources/subscribe is not offered: this store has no message bus");
 */
export class McpError extends Error {
  /** Set when the error is raised before the envelope was fully parsed but its id was readable. */
  requestId?: RequestId;

  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly httpStatus = 200,
    /** HTTP headers for the answer, e.g. `Retry-After`. */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(clip(message, MAX_MESSAGE));
    this.name = "McpError";
  }
}

/**
 * A refusal answered as it is rather than as a JSON-RPC error: its own status, headers and body (an OAuth challenge, 401
 * with `WWW-Authenticate` and an OAuth error body). Thrown by a step (an authenticator, an authorizer) to end the request.
 * @example
 * const headers = { "content-type": "application/json", "www-authenticate": 'Bearer realm="mcp"' };
 * throw new HttpRefusal(401, headers, JSON.stringify({ error: "invalid_token" }), "the token has expired");
 */
export class HttpRefusal extends Error {
  override name = "HttpRefusal";
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The store could not be reached or failed: answered -32603 "storage unavailable" (HTTP 503), the reason logged.
 * @example if (!counter) throw new StorageUnavailableError("count", new Error("the store has no rate counter"));
 */
export class StorageUnavailableError extends Error {
  override name = "StorageUnavailableError";
  constructor(operation: string, cause: unknown) {
    super(`storage unavailable (${operation}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * -32600. Transport-level refusals reuse it with their own status (403, 413, 415).
 * @example
 * throw invalidRequest(`${mcp.method} needs a session: send the Mcp-Session-Id that initialize answered with`);
 */
export const invalidRequest = (message: string, httpStatus = 400) =>
  new McpError(ErrorCode.InvalidRequest, message, undefined, httpStatus);

export const methodNotFound = (method: string) =>
  new McpError(ErrorCode.MethodNotFound, `Method not found: ${clip(method)}`, undefined, 404);

/**
 * -32602. Malformed request metadata is a 400; a bad argument inside a valid request stays 200.
 * @example if (typeof taskId !== "string") throw invalidParams("params.taskId (a string) is required");
 */
export const invalidParams = (message: string, data?: unknown, httpStatus = 200) =>
  new McpError(ErrorCode.InvalidParams, message, data, httpStatus);

export const headerMismatch = (message: string) =>
  new McpError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`, undefined, 400);

/**
 * -32021 (HTTP 400): the client lacks a capability the request needs. `unanswerable` keeps the questions that could not be
 * asked (never sent): an adapter for another protocol revision may ask them another way.
 * @example
 * if (error instanceof MissingCapabilitiesError) return finalResult(cannotAsk(mcp, Object.values(error.unanswerable)));
 */
export class MissingCapabilitiesError extends McpError {
  constructor(
    requiredCapabilities: ClientCapabilities,
    /** What is missing, for what: `elicitation (url), needed to ask for connect`. */
    readonly what: string,
    readonly unanswerable: Readonly<Record<string, InputRequest>> = {},
  ) {
    const message = `Missing required client capability: ${what}`;
    super(ErrorCode.MissingRequiredClientCapability, message, { requiredCapabilities }, 400);
  }
}

/**
 * -32022 (HTTP 400): the client asked for a protocol version this server does not speak; `data` lists those it does.
 * @example throw unsupportedProtocolVersion(header, supportedProtocolVersions());
 */
export const unsupportedProtocolVersion = (
  requested: string,
  supported: readonly string[],
  message = "Unsupported protocol version",
) => new McpError(ErrorCode.UnsupportedProtocolVersion, message, { supported, requested: clip(requested) }, 400);

/**
 * -32602 with `data.uri`, 2026-07-28's "resource not found"; its own class so an adapter can answer its revision's code.
 * @example if (contents.length === 0) throw new ResourceNotFoundError(uri);
 */
export class ResourceNotFoundError extends McpError {
  readonly uri: string;
  constructor(uri: string) {
    const quoted = clip(uri, 2048);
    super(ErrorCode.InvalidParams, `Resource not found: ${quoted}`, { uri: quoted });
    this.uri = quoted;
  }
}

/**
 * 429, in JSON-RPC and in HTTP: the caller is over one of its limits, which the message names (its value, and how to raise it);
 * `data` says which, for a client that reacts to it.
 * @example throw limitExceeded("At most 20 open streams per caller (NITRO_MCP_CALLER_STREAMS): close one first", { limit: 20 })
 */
export const limitExceeded = (
  message: string,
  data: Readonly<Record<string, unknown>>,
  headers?: Readonly<Record<string, string>>,
) => new McpError(ErrorCode.LimitExceeded, message, data, 429, headers);

/**
 * -32603 with HTTP 500: the server failed. The client reads `message` (by default only "Internal error"): the reason
 * goes to the log.
 * @example
 * throw internalError("This server cannot ask for input: its operator has not configured NITRO_MCP_STATE_SECRET");
 */
export const internalError = (message = "Internal error") =>
  new McpError(ErrorCode.InternalError, message, undefined, 500);

/** The one answer to every rejected `requestState`: telling a client which check failed would hand it an oracle. */
export const invalidRequestState = () => invalidParams("Invalid or expired requestState");
