/**
 * The seam through which an optional feature (e.g. `server/features/rate-limit`) refuses requests
 * on `POST /mcp`, without the core knowing it: the feature's plugin adds its checks at start-up.
 *
 * - A request check runs right after `authenticate`, before the body is read: it sees the caller
 *   (`event.context.mcpAuth`) and the headers, so a refusal costs no body read and no parse.
 * - A message check runs once the JSON-RPC request is read, before anything acts on it (no
 *   `requestState` opened or claimed, no handler run): for what only the body says.
 *
 * A check answers a refusal (sent as a JSON-RPC error with its status and headers, the request id
 * when known) or nothing; what it throws is answered like any other error (a store fault: 503).
 */
import type { H3Event } from "h3";
import type { McpError } from "../errors";
import type { JsonRpcRequest } from "../jsonrpc";
import { sendError } from "./error-reply";

export interface Refusal {
  readonly error: McpError;
  readonly headers?: Record<string, string>;
}

type Verdict = Refusal | undefined | Promise<Refusal | undefined>;
export type RequestCheck = (event: H3Event) => Verdict;
export type MessageCheck = (event: H3Event, message: JsonRpcRequest) => Verdict;

const requestChecks: RequestCheck[] = [];
const messageChecks: MessageCheck[] = [];
/** Registers checks (at start-up). */
export function addRequestChecks(checks: { request?: RequestCheck; message?: MessageCheck }): void {
  if (checks.request) requestChecks.push(checks.request);
  if (checks.message) messageChecks.push(checks.message);
}

/** Step of `POST /mcp` after `authenticate`: the request checks, in order, until one refuses. */
export async function runRequestChecks(event: H3Event): Promise<void> {
  try {
    for (const check of requestChecks) {
      const refusal = await check(event);
      if (refusal) return sendError(event, undefined, refusal.error, refusal.headers);
    }
  } catch (error) {
    return sendError(event, undefined, error);
  }
}

/** The first refusal of the message checks (called by `readMcpRequest`, whose errors answer what they throw). */
export async function runMessageChecks(event: H3Event, message: JsonRpcRequest): Promise<Refusal | undefined> {
  for (const check of messageChecks) {
    const refusal = await check(event, message);
    if (refusal) return refusal;
  }
  return undefined;
}
