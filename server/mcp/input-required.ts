/**
 * The "ask first" outcome of a handler. Authors build it with `inputRequired()` from
 * `utils/`; the checks run right there, so a mistake surfaces where it is made:
 * - only tools/call, prompts/get and resources/read may ask (anything else is a
 *   programming error: logged, -32603);
 * - every embedded request must be answerable by this client (-32021 otherwise; legacy
 *   requests are answered by `legacyInputRequired` instead).
 * The dispatcher then seals the state into `requestState`.
 */
import { requireClientCapabilities } from "./capabilities";
import type { McpContext } from "./context";
import { internalError } from "./errors";
import { INPUT_REQUIRED_METHODS, type InputRequest } from "./protocol";

const OUTCOME = Symbol.for("mcp-edge-template.input-required");

export interface InputRequiredOutcome {
  readonly [OUTCOME]: true;
  readonly inputRequests: Readonly<Record<string, InputRequest>>;
  /** The author's plain-object state, sealed into `requestState`. */
  readonly state: Readonly<Record<string, unknown>>;
}

export function createInputRequiredOutcome(
  mcp: McpContext,
  inputRequests: Readonly<Record<string, InputRequest>>,
  state: Readonly<Record<string, unknown>>,
): InputRequiredOutcome {
  if (!INPUT_REQUIRED_METHODS.has(mcp.method)) {
    console.error(`[mcp] programming error: inputRequired() called while serving ${mcp.method}; only tools/call, prompts/get and resources/read may ask for input`);
    throw internalError();
  }
  // Legacy clients declared their capabilities at `initialize`, which this stateless server
  // cannot know; their requests are turned into a clear refusal by the dispatcher instead.
  if (mcp.era === "modern") requireClientCapabilities(mcp.clientCapabilities, inputRequests);
  return { [OUTCOME]: true, inputRequests, state };
}

export const isInputRequiredOutcome = (value: unknown): value is InputRequiredOutcome =>
  typeof value === "object" && value !== null && (value as Partial<InputRequiredOutcome>)[OUTCOME] === true;
