import type { McpContext } from "../context";
import type { InputRequiredOutcome } from "../outcome";

/** A method returns its result without `resultType`/`_meta`: the dispatcher adds those for the request's era. */
export type MethodResult = Record<string, unknown> | InputRequiredOutcome;
export type MethodHandler = (mcp: McpContext) => Promise<MethodResult> | MethodResult;
