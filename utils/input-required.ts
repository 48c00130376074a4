/**
 * Multi round-trip requests, from the author's side.
 *
 * A handler runs again on every round. It reads what has been answered so far, asks
 * for what is missing with `inputRequired(...)`, and carries anything it must remember
 * in the state (sealed by the server: the client can neither read nor change it).
 *
 * @example
 * const ask = { confirm: elicitForm(`Delete note ${id}?`, Confirm) };
 * const { confirm } = readInputResponses(mcp, ask);
 * if (!confirm) return inputRequired(mcp, ask);          // first round (or unusable answer)
 * if (confirm.action === "accept" && confirm.content.confirm) { … delete … }
 * return "Kept the note.";                                 // decline and cancel are answers
 */
import { clientCanAnswer } from "../server/mcp/capabilities";
import type { McpContext } from "../server/mcp/context";
import { createInputRequiredOutcome, type InputRequiredOutcome } from "../server/mcp/input-required";
import { parseAnswer, type AnswerOf, type AskFor, type Asks } from "../server/mcp/input-requests";

export type { AskFor };

/**
 * Answers "I need this first": the client gathers the answers and retries the same
 * request. `state` is any plain JSON object; it comes back on the next round as
 * `readRequestState(mcp)`. Answers do not accumulate across rounds — carry earlier
 * answers in the state.
 *
 * The server checks each request against the client's declared capabilities (-32021
 * when one is missing); see `supportedInputs` to degrade instead.
 */
export function inputRequired(mcp: McpContext, inputRequests: Asks, state: Record<string, unknown> = {}): InputRequiredOutcome {
  return createInputRequiredOutcome(mcp, inputRequests, state);
}

/**
 * The answers to `asks`, typed by the request that asked. A key is absent when it was not
 * answered — or when the answer does not validate, so that it is asked again.
 *
 * @example
 * const { confirm } = readInputResponses(mcp, { confirm: elicitForm("Sure?", Confirm) });
 * if (confirm?.action === "accept") console.log(confirm.content.confirm); // typed by Confirm
 */
export function readInputResponses<A extends Asks>(mcp: McpContext, asks: A): { [K in keyof A]?: AnswerOf<A[K]> } {
  const answers: { [K in keyof A]?: AnswerOf<A[K]> } = {};
  for (const key of Object.keys(asks) as (keyof A & string)[]) {
    const answer = parseAnswer(asks[key]!, mcp.inputResponses[key]);
    if (answer !== undefined) answers[key] = answer as AnswerOf<A[typeof key]>;
  }
  return answers;
}

/**
 * The subset of `asks` with no usable answer yet, or undefined when everything is answered.
 *
 * @example
 * const missing = missingInputs(mcp, ask);
 * if (missing) return inputRequired(mcp, missing); // only re-ask what is still open
 */
export function missingInputs<A extends Asks>(mcp: McpContext, asks: A): Partial<A> | undefined {
  const answers = readInputResponses(mcp, asks);
  const missing = Object.fromEntries(Object.entries(asks).filter(([key]) => !(key in answers))) as Partial<A>;
  return Object.keys(missing).length ? missing : undefined;
}

/**
 * Can this client answer `ask` on this request? Always false for clients older than 2026-07-28.
 *
 * @example
 * if (!canRequestInput(mcp, ask.format)) return asMarkdown(notes); // degrade instead of -32021
 */
export function canRequestInput(mcp: McpContext, ask: AskFor<unknown>): boolean {
  return mcp.era === "modern" && clientCanAnswer(mcp.clientCapabilities, ask);
}

/**
 * The subset of `asks` this client can answer (possibly empty), to degrade instead of failing with -32021.
 *
 * @example
 * const askable = supportedInputs(mcp, { form: elicitForm("Name?", Name), model: createMessage(params) });
 * if (Object.keys(askable).length) return inputRequired(mcp, askable);
 */
export function supportedInputs<A extends Asks>(mcp: McpContext, asks: A): Partial<A> {
  return Object.fromEntries(Object.entries(asks).filter(([, ask]) => canRequestInput(mcp, ask))) as Partial<A>;
}

/**
 * The state this handler passed to `inputRequired` on the previous round, or undefined on the first round.
 * It was sealed by the server, so it is what you wrote — but it is only as fresh as the round that wrote it.
 *
 * @example
 * const progress = readRequestState<{ name?: string }>(mcp) ?? {};
 */
export function readRequestState<State extends Record<string, unknown>>(mcp: McpContext): State | undefined {
  return mcp.state?.data as State | undefined;
}
