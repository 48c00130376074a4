import type { McpContext } from "../context";
import type { InputRequiredOutcome, TaskCreatedOutcome } from "../outcome";

/** A method returns its result without `resultType`/`_meta`: the dispatcher adds those for the request's era. */
export type MethodResult = Record<string, unknown> | InputRequiredOutcome | TaskCreatedOutcome;
export type MethodHandler = (mcp: McpContext) => Promise<MethodResult> | MethodResult;
