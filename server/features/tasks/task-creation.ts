/**
 * tools/call of a tool that can run as a task (`defineTool({ task })`, declared by this feature), decided per request:
 * - the client declared the tasks extension on this request: the arguments are checked and the
 *   tool's `prepare` runs (it may ask first, as any round; what it returns is the task's starting
 *   state, which `run` reads with `readRequestState`); then, if the caller has a free task slot
 *   (`task-slots.ts`; otherwise an isError result, and nothing is stored), the task is stored —
 *   readable from any instance — before the answer, `resultType: "task"`, and its first round starts;
 * - it did not: an optional task tool runs as a plain call (with the same starting state); a required
 *   one is refused with -32021 naming the extension.
 */
import { SETTINGS } from "./settings";
import { publicTask } from "./task-views";
import { createTaskRecord, type TaskRecord } from "./task-records";
import { startRound } from "./task-rounds";
import { claimTaskSlot } from "./task-slots";
import {
  base64UrlEncode,
  finalResult,
  invalidParams,
  isInputRequiredOutcome,
  isPlainObject,
  logWithReference,
  McpError,
  MissingCapabilitiesError,
  shapeResult,
  StorageUnavailableError,
  toolErrorResult,
  useSettings,
  type CallToolResult,
  type InputRequiredOutcome,
  contextWith,
  type McpContext,
  type Outcome,
  type ToolEntry,
  type ValidArguments,
} from "../../mcp/kit";

/** The extension's name in the capabilities. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

declare module "../../mcp/kit" {
  interface ToolDefinitionOptions<Args = ValidArguments> {
    /**
     * Runs as a task (`io.modelcontextprotocol/tasks`): the call answers at once with a task the client polls while `run`
     * goes on, on any instance, each round with the parsed arguments (stored as JSON); `sendProgress` sets its status,
     * `inputRequired` parks it, `mcp.signal` fires on cancel. `"optional"`: if the client declares it; `"required"`:
     * always (-32021 without).
     */
    readonly task?: "optional" | "required";
    /**
     * Task tools only: asks the job's questions before the task exists (the extension's advice); what it returns is the
     * task's starting state, which `run` reads with `readRequestState(mcp)`.
     */
    prepare?(
      args: Args,
      mcp: McpContext,
    ): Record<string, unknown> | InputRequiredOutcome | Promise<Record<string, unknown> | InputRequiredOutcome>;
  }
}

/** Did the client declare the tasks extension on this request? (Never inferred from another request.) */
export function declaresTasks(mcp: McpContext): boolean {
  const extensions = mcp.clientCapabilities.extensions;
  return !mcp.adapter && isPlainObject(extensions) && isPlainObject(extensions[TASKS_EXTENSION]);
}

/** -32021 (HTTP 400) naming the tasks extension. */
export const tasksExtensionRequired = (why: string) =>
  new MissingCapabilitiesError(
    { extensions: { [TASKS_EXTENSION]: {} } },
    `the tasks extension (${TASKS_EXTENSION}), ${why}`,
  );

/** The capabilities later rounds act on (what the client can be asked), reduced to their names: nothing else the client declared is kept. */
const ROUND_CAPABILITIES: Readonly<Record<string, readonly string[]>> = {
  elicitation: ["form", "url"],
  sampling: ["context", "tools"],
  roots: [],
};
/** Extensions the client declared, kept by name (so a round still sees this one): at most this many. */
const MAX_KEPT_EXTENSIONS = 16;

function roundCapabilities(declared: Readonly<Record<string, unknown>>): Record<string, Record<string, object>> {
  const kept: Record<string, Record<string, object>> = {};
  for (const [name, parts] of Object.entries(ROUND_CAPABILITIES)) {
    const value = declared[name];
    if (isPlainObject(value))
      kept[name] = Object.fromEntries(parts.filter((part) => isPlainObject(value[part])).map((part) => [part, {}]));
  }
  const extensions = declared.extensions;
  if (isPlainObject(extensions)) {
    const names = Object.keys(extensions).filter((name) => name.length <= 200 && isPlainObject(extensions[name]));
    kept.extensions = Object.fromEntries(names.slice(0, MAX_KEPT_EXTENSIONS).map((name) => [name, {}]));
  }
  return kept;
}

function newTask(
  tool: ToolEntry,
  args: ValidArguments,
  mcp: McpContext,
  state: Readonly<Record<string, unknown>> | undefined,
): TaskRecord {
  const config = useSettings(SETTINGS);
  const now = new Date().toISOString();
  return {
    // Unguessable (it names the task to whoever holds it) and header-safe (it travels in Mcp-Name).
    id: base64UrlEncode(crypto.getRandomValues(new Uint8Array(18))),
    owner: mcp.principal,
    tool: tool.descriptor.name,
    arguments: args,
    ...(state ? { state } : {}),
    caller: {
      auth: mcp.auth,
      key: mcp.caller,
      protocolVersion: mcp.protocolVersion,
      clientCapabilities: roundCapabilities(mcp.clientCapabilities),
    },
    status: "working",
    statusMessage: "Started",
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: config.taskTtlSeconds * 1000,
    pollIntervalMs: config.taskPollIntervalMs,
    heartbeatAt: Date.now(),
    round: 0,
  };
}

/**
 * The tool's `prepare`: the task's starting state, or what answers the request instead (its questions; an isError result for
 * a failure, as a tool's run has them; a protocol error is thrown on).
 */
async function prepared(
  tool: ToolEntry,
  args: ValidArguments,
  mcp: McpContext,
): Promise<{ state?: Readonly<Record<string, unknown>> } | { answer: InputRequiredOutcome | CallToolResult }> {
  const prepare = tool.options.prepare;
  if (!prepare) return {};
  try {
    const value = await prepare(args, mcp);
    return isInputRequiredOutcome(value) ? { answer: value } : { state: value };
  } catch (error) {
    if (error instanceof McpError || error instanceof StorageUnavailableError) throw error;
    const reference = logWithReference(`tool "${tool.descriptor.name}" threw in prepare`, error);
    return {
      answer: toolErrorResult(`The tool "${tool.descriptor.name}" failed unexpectedly (reference ${reference}).`),
    };
  }
}

/** The middleware's work for a task tool: the whole tools/call, as a task or, without the extension, as a plain call. */
export async function callTaskTool(tool: ToolEntry, mcp: McpContext): Promise<Outcome> {
  const declared = declaresTasks(mcp);
  if (!declared && tool.options.task === "required") {
    throw tasksExtensionRequired(`which ${tool.descriptor.name} runs under`);
  }
  const args = mcp.params.arguments ?? {};
  if (!isPlainObject(args)) throw invalidParams("params.arguments must be an object");
  const parsed = tool.parse(args);
  if ("invalid" in parsed) return parsed.invalid;
  // Questions before the task, or a failure of prepare: answered in this request.
  const before = await prepared(tool, parsed.arguments, mcp);
  if ("answer" in before) return before.answer;
  const { state } = before;
  if (!declared) {
    const round = state ? contextWith(mcp, { state: { data: state } }) : mcp;
    return tool.run(parsed.arguments, round);
  }
  const task = newTask(tool, parsed.arguments, mcp, state);
  if (!(await claimTaskSlot(task))) {
    const max = useSettings(SETTINGS).taskMaxActive;
    return toolErrorResult(
      `Too many active tasks: you already have ${max} working or waiting for input, the most this server allows. Wait for one to finish, or cancel one (tasks/cancel), then call again.`,
    );
  }
  await createTaskRecord(task);
  startRound(mcp.event, task.id);
  return finalResult(shapeResult(publicTask(task), "task"));
}
