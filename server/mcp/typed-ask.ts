/**
 * Typed asks: embedded input requests that know how to read their own answer.
 *
 * A builder in `utils/asks.ts` (`elicitForm`, `elicitUrl`, `askSampling`, `askRoots`) returns the
 * wire request (`{ method, params }`) with a hidden parser attached. The parser is a symbol
 * property, so it never reaches the wire, and the answer read back is typed by the request
 * that asked for it.
 */
import type { InputRequest } from "./protocol";

const PARSE_ANSWER = Symbol.for("mcp-edge-template.parse-answer");

/** An input request whose answer, once validated, has type `Answer`. */
export type AskFor<Answer> = InputRequest & { readonly [PARSE_ANSWER]: (raw: unknown) => Answer | undefined };

export type AnswerOf<Ask> = Ask extends AskFor<infer Answer> ? Answer : never;

export type Asks = Readonly<Record<string, AskFor<unknown>>>;

export function askFor<Answer>(request: InputRequest, parse: (raw: unknown) => Answer | undefined): AskFor<Answer> {
  return Object.defineProperty({ ...request }, PARSE_ANSWER, { value: parse, enumerable: false }) as AskFor<Answer>;
}

/** The validated answer, or undefined when there is none or it does not validate (then it is asked again). */
export function parseAnswer<Answer>(ask: AskFor<Answer>, raw: unknown): Answer | undefined {
  return raw === undefined ? undefined : ask[PARSE_ANSWER](raw);
}
