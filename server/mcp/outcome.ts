/**
 * What a handler may return besides its plain result: a tool's own failure (`toolError(…)`), the "ask first" outcome
 * (`inputRequired(…)`, checked where it is built so a mistake surfaces there), or the task a tools/call created.
 */
import { requireClientCapabilities } from "./capabilities";
import type { McpContext } from "./context";
import { internalError } from "./errors";
import { logError } from "./log";
import { INPUT_REQUIRED_METHODS, type CallToolResult, type InputRequest } from "./protocol";

const TOOL_ERROR = Symbol.for("mcp-edge-template.tool-error");

/** A tool result marked as the author's own error (`isError: true`). */
export type ToolErrorResult = CallToolResult & { readonly [TOOL_ERROR]: true };

export const toolErrorResult = (message: string): ToolErrorResult => ({
  content: [{ type: "text", text: message }],
  isError: true,
  [TOOL_ERROR]: true,
});

export const isToolErrorResult = (value: unknown): value is ToolErrorResult =>
  typeof value === "object" && value !== null && (value as Partial<ToolErrorResult>)[TOOL_ERROR] === true;

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
    logError(
      `programming error: inputRequired() called while serving ${mcp.method}; only tools/call, prompts/get and resources/read may ask for input`,
    );
    throw internalError();
  }
  // Legacy clients declared theirs at `initialize`: the legacy feature checks the session's (`LegacyEra.inputRequired`).
  if (mcp.era === "modern") requireClientCapabilities(mcp.clientCapabilities, inputRequests);
  return { [OUTCOME]: true, inputRequests, state };
}

export const isInputRequiredOutcome = (value: unknown): value is InputRequiredOutcome =>
  typeof value === "object" && value !== null && (value as Partial<InputRequiredOutcome>)[OUTCOME] === true;

const TASK_CREATED = Symbol.for("mcp-edge-template.task-created");

/** tools/call answered with a task (the tasks extension): the `Task` fields, shaped `resultType: "task"`. */
export interface TaskCreatedOutcome {
  readonly [TASK_CREATED]: true;
  readonly task: Readonly<Record<string, unknown>>;
}

export const taskCreatedOutcome = (task: Readonly<Record<string, unknown>>): TaskCreatedOutcome => ({
  [TASK_CREATED]: true,
  task,
});

export const isTaskCreatedOutcome = (value: unknown): value is TaskCreatedOutcome =>
  typeof value === "object" && value !== null && (value as Partial<TaskCreatedOutcome>)[TASK_CREATED] === true;
