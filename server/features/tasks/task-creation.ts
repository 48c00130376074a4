/**
 * tools/call of a tool that can run as a task (`defineTool({ task })`), decided per request:
 * - the client declared the tasks extension on this request: the arguments are checked and the
 *   tool's `prepare` runs (it may ask first, as any round); then, if the caller has a free task
 *   slot (`task-slots.ts`; otherwise an isError result, and nothing is stored), the task is stored —
 *   readable from any instance — before the answer, `resultType: "task"`, and its first round starts;
 * - it did not: an optional task tool runs as a plain call; a required one is refused with -32021
 *   naming the extension (a 2025-era client, which cannot have it, gets an isError result).
 */
import type { McpContext } from "../../mcp/context";
import type { ToolEntry, ValidArguments } from "../../mcp/entries";
import { missingClientCapabilities } from "../../mcp/errors";
import { base64UrlEncode, isPlainObject } from "../../mcp/internal/basics";
import { taskCreatedOutcome, toolErrorResult } from "../../mcp/outcome";
import { useSettings } from "../../mcp/config";
import { SETTINGS } from "./settings";
import { EXTENSIONS } from "../../mcp/protocol";
import type { MethodResult } from "../../mcp/methods/types";
import { publicTask } from "./task-views";
import { createTaskRecord, type TaskRecord } from "./task-records";
import { startRound } from "./task-rounds";
import { claimTaskSlot } from "./task-slots";

/** Did the client declare the tasks extension on this request? (Never inferred from another request.) */
export function declaresTasks(mcp: McpContext): boolean {
  const extensions = mcp.clientCapabilities.extensions;
  return mcp.era === "modern" && isPlainObject(extensions) && isPlainObject(extensions[EXTENSIONS.tasks]);
}

/** -32021 (HTTP 400) naming the tasks extension. */
export const tasksExtensionRequired = (why: string) =>
  missingClientCapabilities(
    { extensions: { [EXTENSIONS.tasks]: {} } },
    `the tasks extension (${EXTENSIONS.tasks}), ${why}`,
  );

/** The capabilities later rounds act on (what the client can be asked, the extensions it takes), reduced to their names: nothing else the client declared is kept. */
const ROUND_CAPABILITIES: Readonly<Record<string, readonly string[]>> = {
  elicitation: ["form", "url"],
  sampling: ["context", "tools"],
  roots: [],
  extensions: Object.values(EXTENSIONS),
};

function roundCapabilities(declared: Readonly<Record<string, unknown>>): Record<string, Record<string, object>> {
  const kept: Record<string, Record<string, object>> = {};
  for (const [name, parts] of Object.entries(ROUND_CAPABILITIES)) {
    const value = declared[name];
    if (isPlainObject(value))
      kept[name] = Object.fromEntries(parts.filter((part) => isPlainObject(value[part])).map((part) => [part, {}]));
  }
  return kept;
}

function newTask(
  tool: ToolEntry,
  args: ValidArguments,
  mcp: McpContext,
  prepared: Readonly<Record<string, unknown>> | undefined,
): TaskRecord {
  const config = useSettings(SETTINGS);
  const now = new Date().toISOString();
  return {
    // Unguessable (it names the task to whoever holds it) and header-safe (it travels in Mcp-Name).
    id: base64UrlEncode(crypto.getRandomValues(new Uint8Array(18))),
    owner: mcp.principal,
    tool: tool.descriptor.name,
    arguments: args,
    ...(prepared ? { prepared } : {}),
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

export async function callTaskTool(
  tool: ToolEntry & { task: NonNullable<ToolEntry["task"]> },
  args: Record<string, unknown>,
  mcp: McpContext,
): Promise<MethodResult> {
  const declared = declaresTasks(mcp);
  if (!declared && tool.task.mode === "required") {
    if (mcp.era === "legacy") {
      return toolErrorResult(
        `The tool "${tool.descriptor.name}" runs as a task, which needs an MCP 2026-07-28 client with the tasks extension; this client uses ${mcp.protocolVersion}.`,
      );
    }
    throw tasksExtensionRequired(`which ${tool.descriptor.name} runs under`);
  }
  const before = await tool.task.prepare(args, mcp);
  // Questions before the task, or arguments that are not valid: answered in this request.
  if ("answer" in before) return before.answer;
  if (!declared) return tool.task.run(before.arguments, mcp, before.prepared);
  const task = newTask(tool, before.arguments, mcp, before.prepared);
  if (!(await claimTaskSlot(task))) {
    const max = useSettings(SETTINGS).taskMaxActive;
    return toolErrorResult(
      `Too many active tasks: you already have ${max} working or waiting for input, the most this server allows. Wait for one to finish, or cancel one (tasks/cancel), then call again.`,
    );
  }
  await createTaskRecord(task);
  startRound(mcp.event, task.id);
  return taskCreatedOutcome(publicTask(task));
}
