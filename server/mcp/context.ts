/**
 * `McpContext`: everything a handler may know about the request it serves.
 *
 * The event-context middleware builds it once per request and stores it on
 * `event.context.mcp`; tools, prompts and resources receive it as their `mcp`
 * argument. Nothing in it survives the request.
 */
import type { H3Event } from "h3";
import type { ResponseChannel } from "./http/channel";
import type { Implementation, LoggingLevel, ProgressToken, RequestId } from "./protocol";

/** `modern`: 2026-07-28 per-request `_meta`. `legacy`: 2025-11-25 and earlier, opened with `initialize`. */
export type Era = "modern" | "legacy";

/** The verified `requestState` of the round this request continues. */
export interface OpenedState {
  /** What the author put in the state on the previous round. */
  readonly data: Readonly<Record<string, unknown>>;
  /** Random id of this state, used to refuse a second redemption. */
  readonly id: string;
  /** Expiry, seconds since the epoch. */
  readonly expiresAt: number;
  /** The entry declared `singleUseState`: the state is recorded as redeemed once this round is answered. */
  readonly singleUse: boolean;
}

export interface McpContext {
  readonly id: RequestId;
  readonly method: string;
  /** The request params, `_meta` included, exactly as sent. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly era: Era;
  readonly protocolVersion: string;
  /** As declared by the client for this request; values are untrusted (see `capabilities.ts`). */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  readonly clientInfo?: Implementation;
  readonly logLevel?: LoggingLevel;
  readonly progressToken?: ProgressToken;
  /** Who is calling, as resolved by `server/principal.ts`. */
  readonly principal: string;
  /** Fires when the client goes away: stop working, nothing more will be sent. */
  readonly signal: AbortSignal;
  /** Answers to the previous round's `inputRequests`. Untrusted: read them with the helpers in `utils/`. */
  readonly inputResponses: Readonly<Record<string, unknown>>;
  /** Present when the request carried a valid `requestState`. */
  readonly state?: OpenedState;
  readonly event: H3Event;
  /** @internal the response this request writes to. */
  readonly channel: ResponseChannel;
}
