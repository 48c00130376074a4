/**
 * How an MCP request ended, recorded on the event for whoever observes requests once the response
 * is complete (the observability feature's request log and span read it).
 */
import type { H3Event } from "h3";

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

declare module "h3" {
  interface H3EventContext {
    /** How the request ended, once answered (or refused). */
    mcpOutcome?: RequestOutcome;
  }
}
