import type { McpContext } from "../context";
import type { FinalResult, InputRequiredOutcome } from "../outcome";

/** A method's answer: a result without `resultType`/`_meta` (the core adds them), `inputRequired(…)`, or a `finalResult(…)`. */
export type MethodResult = Record<string, unknown> | InputRequiredOutcome | FinalResult;
export type MethodHandler = (mcp: McpContext) => Promise<MethodResult> | MethodResult;
