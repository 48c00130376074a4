/** `McpContext`: what a handler (its `mcp` argument) knows about its request, built once by `readMcpRequest`. */
import type { H3Event } from "h3";
import type { Entry } from "./entries";
import type { ResponseChannel } from "./http/channel";
import type { Implementation, LoggingLevel, ProgressToken, RequestId } from "./protocol";

export interface AuthInfo {
  /**
   * A stable name for the caller, sealed into every requestState: `<issuer>#<subject>` for a signed-in user, the name of a
   * static token, or `anonymous`. A fork's authenticator gives its callers names of a kind of their own (`api-key:<name>`),
   * so that none can pass for another kind's, nor for `anonymous`, whose rate limits and states it would share.
   */
  readonly principal: string;
  /** How the caller was identified (`anonymous`: by nobody); an authenticator names its own way (e.g. `oauth`, `static`). */
  readonly via: string;
  /** The OAuth scopes granted, when the caller signed in with a token that has scopes. */
  readonly scopes: readonly string[];
  readonly clientId?: string;
  /** The verified claims of the caller's credential (e.g. an access token's). */
  readonly claims?: Readonly<Record<string, unknown>>;
}

/** What tools/call, prompts/get and resources/read act on, resolved once per request. */
export interface RequestTarget {
  /** The tool or prompt name, or the resource URI. */
  readonly name: string;
  /** The definition registered under that name; undefined when there is none (the method reports it). */
  readonly entry?: Entry;
  /** For a resource template: the variables decoded from the URI. */
  readonly variables: Readonly<Record<string, string>>;
}

/** The verified `requestState` of the round this request continues. */
export interface OpenedState {
  /** What the author put in the state on the previous round. */
  readonly data: Readonly<Record<string, unknown>>;
}

/** What a request says about its client: from its 2026-07-28 `_meta`, or from an adapter (another protocol revision). */
export interface RequestMeta {
  readonly protocolVersion: string;
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  readonly clientInfo?: Implementation;
  readonly logLevel?: LoggingLevel;
  readonly progressToken?: ProgressToken;
}

export interface McpContext extends RequestMeta {
  readonly id: RequestId;
  readonly method: string;
  /** The request params, `_meta` included, exactly as sent. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The name of the adapter that read a request of another protocol revision; undefined for 2026-07-28. */
  readonly adapter?: string;
  /** Present for tools/call, prompts/get and resources/read when the body names a target. */
  readonly target?: RequestTarget;
  /** The same as `auth.principal`. */
  readonly principal: string;
  /**
   * Whom the caller's fair shares and limits count against: its principal when signed in, else its address (an IPv6
   * address by its /64). Never a key to data: an anonymous caller's address changes, its principal does not.
   */
  readonly caller: string;
  readonly auth: AuthInfo;
  /** Fires when the client goes away: stop working, nothing more will be sent. */
  readonly signal: AbortSignal;
  /** Answers to the previous round's `inputRequests`. Untrusted: read them with the helpers in `utils/`. */
  readonly inputResponses: Readonly<Record<string, unknown>>;
  /** Present when the request carried a valid `requestState`. */
  readonly state?: OpenedState;
  readonly event: H3Event;
  /** The response this request writes its notifications to (progress, logs). */
  readonly channel: ResponseChannel;
}

/** What a request's context is made of: all of it but what it works out when asked. */
export type ContextFields = Omit<McpContext, "signal" | "caller">;

/** What another round of a request, or the request as another method would make it, may change: never its caller. */
export type ContextChanges = Partial<Pick<ContextFields, "method" | "target" | "params" | "state">>;

/**
 * `mcp` with `changes`, an object of its class (with `caller`, once worked out). Not `Object.create(mcp)`: V8 gives every
 * object made a prototype a hidden class of its own.
 * @example const round = contextWith(mcp, { state: { data: { step: 2 } } }); // the tool's own next round
 */
export const contextWith = (mcp: McpContext, changes: ContextChanges): McpContext =>
  Object.assign(Object.create(Object.getPrototypeOf(mcp)), mcp, changes);

declare module "h3" {
  interface H3EventContext {
    /** Set by the authenticate step of `POST /mcp`. */
    mcpAuth?: AuthInfo;
    /** Set by `readMcpRequest` as soon as the body parses: what a refused request still says about itself. */
    mcpMessage?: import("./protocol").JsonRpcRequest;
    /** Set by `readMcpRequest`: the validated request the route's handler answers. */
    mcp?: McpContext;
    /** How the MCP request ended, set when its answer (or refusal) is written (`http/error-reply.ts`, `http/respond.ts`). */
    mcpOutcome?: import("./http/error-reply").RequestOutcome;
  }
}
