/**
 * tools/call of a tool that can run as a task (`defineTool({ task })`), decided per request:
 * - the client declared the tasks extension on this request: the arguments are checked and the
 *   tool's `prepare` runs (it may ask first, as any round); then the task is stored — readable
 *   from any instance — before the answer, `resultType: "task"`, and its first round starts;
 * - it did not: an optional task tool runs as a plain call; a required one is refused with -32021
 *   naming the extension (a 2025-era client, which cannot have it, gets an isError result).
 */
import type { McpContext } from "../context";
import type { ToolEntry } from "../entries";
import { missingClientCapabilities } from "../errors";
import { base64UrlEncode } from "../internal/encoding";
import { isPlainObject } from "../internal/object";
import { taskCreatedOutcome, toolErrorResult } from "../outcome";
import { useMcpConfig } from "../config";
import { EXTENSIONS } from "../protocol";
import type { MethodResult } from "../methods/types";
import { publicTask } from "./task-views";
import { createTaskRecord, type TaskRecord } from "./task-records";
import { startRound } from "./task-rounds";

/** Did the client declare the tasks extension on this request? (Never inferred from another request.) */
export function declaresTasks(mcp: McpContext): boolean {
  const extensions = mcp.clientCapabilities.extensions;
  return mcp.era === "modern" && isPlainObject(extensions) && isPlainObject(extensions[EXTENSIONS.tasks]);
}

/** -32021 (HTTP 400) naming the tasks extension. */
export const tasksExtensionRequired = (why: string) => missingClientCapabilities({ extensions: { [EXTENSIONS.tasks]: {} } }, `the tasks extension (${EXTENSIONS.tasks}), ${why}`);

function newTask(tool: ToolEntry, args: Record<string, unknown>, mcp: McpContext, prepared: Readonly<Record<string, unknown>> | undefined): TaskRecord {
  const config = useMcpConfig();
  const now = new Date().toISOString();
  return {
    // Unguessable (it names the task to whoever holds it) and header-safe (it travels in Mcp-Name).
    id: base64UrlEncode(crypto.getRandomValues(new Uint8Array(18))),
    owner: mcp.principal,
    tool: tool.descriptor.name,
    arguments: args,
    ...(prepared ? { prepared } : {}),
    caller: { auth: mcp.auth, protocolVersion: mcp.protocolVersion, clientCapabilities: mcp.clientCapabilities },
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

export async function callTaskTool(tool: ToolEntry & { task: NonNullable<ToolEntry["task"]> }, args: Record<string, unknown>, mcp: McpContext): Promise<MethodResult> {
  const declared = declaresTasks(mcp);
  if (!declared && tool.task.mode === "required") {
    if (mcp.era === "legacy") {
      return toolErrorResult(`The tool "${tool.descriptor.name}" runs as a task, which needs an MCP 2026-07-28 client with the tasks extension; this client uses ${mcp.protocolVersion}.`);
    }
    throw tasksExtensionRequired(`which ${tool.descriptor.name} runs under`);
  }
  const before = await tool.task.prepare(args, mcp);
  // Questions before the task, or arguments that are not valid: answered in this request.
  if ("answer" in before) return before.answer;
  if (!declared) return tool.call(args, mcp, before.prepared);
  const task = newTask(tool, args, mcp, before.prepared);
  await createTaskRecord(task);
  startRound(mcp.event, task.id);
  return taskCreatedOutcome(publicTask(task));
}
