/**
 * Multi round-trip requests, from the author's side.
 *
 * A handler runs again on every round. It reads what has been answered so far, asks for
 * what is missing with `inputRequired(...)`, and carries anything it must remember in the
 * state (sealed by the server: the client can neither read nor change it).
 */
import type { z } from "zod";
import { clientCanAnswer, createInputRequiredOutcome, parseAnswer, parseOrUndefined, type AnswerOf, type AskFor, type Asks, type InputRequiredOutcome, type McpContext } from "../server/mcp/author";

export type { AskFor };

/**
 * Answers "I need this first": the client asks the person (or its model), then retries the
 * same request with the answers. `state` is any plain JSON object; it is sealed into
 * `requestState` and comes back on the next round as `readRequestState(mcp)`. Answers do not
 * accumulate across rounds: carry earlier answers in the state.
 *
 * Only tools/call, prompts/get and resources/read may ask. Each question is checked against
 * the capabilities the client declared on this request (-32021 naming what is missing);
 * use `canRequestInput` or `supportedInputs` to degrade instead.
 *
 * @example
 * const ask = { confirm: elicitForm(`Delete note ${id}?`, Confirm) };
 * const { confirm } = readInputResponses(mcp, ask);
 * if (!confirm) return inputRequired(mcp, ask, { step: 2 }); // first round, or an answer that did not validate
 */
export function inputRequired(mcp: McpContext, inputRequests: Asks, state: Record<string, unknown> = {}): InputRequiredOutcome {
  return createInputRequiredOutcome(mcp, inputRequests, state);
}

/**
 * The answers to `asks`, typed by the question that asked. A key is absent when it was not
 * answered — or when the answer does not validate, so that it is asked again.
 *
 * @example
 * const ask = { confirm: elicitForm("Sure?", Confirm) };
 * const { confirm } = readInputResponses(mcp, ask);
 * if (!confirm) return inputRequired(mcp, ask);
 * if (confirm.action === "accept") return confirm.content.confirm ? "Done." : "Left as it was."; // typed by Confirm
 * return `You chose ${confirm.action}.`; // decline and cancel are answers, not errors
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
 * const ask = { name: elicitForm("Your name?", Name), email: elicitForm("Your email?", Email) };
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
 * const ask = { format: elicitForm("Markdown or JSON?", Format) };
 * if (!canRequestInput(mcp, ask.format)) return asMarkdown(notes); // degrade instead of -32021
 */
export function canRequestInput(mcp: McpContext, ask: AskFor<unknown>): boolean {
  return mcp.era === "modern" && clientCanAnswer(mcp.clientCapabilities, ask);
}

/**
 * The subset of `asks` this client can answer (possibly empty), to degrade instead of failing with -32021.
 *
 * @example
 * const askable = supportedInputs(mcp, { form: elicitForm("Name?", Name), model: askSampling(params) });
 * if (Object.keys(askable).length) return inputRequired(mcp, askable);
 */
export function supportedInputs<A extends Asks>(mcp: McpContext, asks: A): Partial<A> {
  return Object.fromEntries(Object.entries(asks).filter(([, ask]) => canRequestInput(mcp, ask))) as Partial<A>;
}

/**
 * The state this handler passed to `inputRequired` on the previous round, or undefined on the
 * first round. It was sealed by the server, so it is what you wrote — but it is only as fresh
 * as the round that wrote it. With a zod `schema`, a state that no longer matches (say, sealed
 * before a deploy changed its shape) reads as undefined, so the flow starts again from round one.
 *
 * @example
 * const Progress = z.object({ name: z.string().optional(), color: z.string().optional() });
 * const progress = readRequestState(mcp, Progress) ?? {};
 * if (progress.name === undefined) { … ask for the name … }
 */
export function readRequestState<Schema extends z.ZodType<Record<string, unknown>>>(mcp: McpContext, schema: Schema): z.output<Schema> | undefined;
/**
 * The state this handler passed to `inputRequired` on the previous round, or undefined on the first round,
 * as `State` (unchecked: pass a zod schema to check it).
 *
 * @example
 * const progress = readRequestState<{ step?: number }>(mcp) ?? {};
 */
export function readRequestState<State extends Record<string, unknown> = Record<string, unknown>>(mcp: McpContext): State | undefined;
export function readRequestState(mcp: McpContext, schema?: z.ZodType<Record<string, unknown>>): Record<string, unknown> | undefined {
  const data = mcp.state?.data;
  if (data === undefined || schema === undefined) return data;
  return parseOrUndefined(schema, data);
}
