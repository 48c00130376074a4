/**
 * A task runs as rounds of its tool's `run`, in the background of the request that started the
 * round: the tools/call that created the task, or the tasks/update that answered its questions,
 * on whichever instance received it. A round ends in one of three ways, stored with a
 * compare-and-set (a task cancelled meanwhile stays cancelled):
 * - a result → `completed` (a tool's own `isError` result included);
 * - `inputRequired(…)` → `input_required`: the questions get keys no earlier round used, and the
 *   author's state is kept for the next round;
 * - a protocol error → `failed`, with the error.
 * While a round runs, its instance reports a heartbeat; it also reads the task then, so a cancel
 * received anywhere reaches the work (`mcp.signal`) within one beat. A working task whose heartbeat
 * stops (the instance died, or its platform stopped the work) is marked failed by the next reader.
 */
import type { H3Event } from "h3";
import { SETTINGS } from "./settings";
import { keepAlive } from "./background";
import { endedTask, isTerminal, readTaskRecord, updateTaskRecord, type TaskRecord } from "./task-records";
import {
  shapeResult,
  errorBody,
  isInputRequiredOutcome,
  logError,
  logWithReference,
  McpError,
  registry,
  resolveTarget,
  ResponseChannel,
  useSettings,
  type McpContext,
} from "../../mcp/kit";

/** How often a running round reports, from the configured timeout (three beats per timeout). */
const heartbeatIntervalMs = () => Math.max(250, (useSettings(SETTINGS).taskHeartbeatTimeoutSeconds * 1000) / 3);

/** A working task whose round stopped reporting: failed, with why. */
function lostHeartbeat(record: TaskRecord): TaskRecord | undefined {
  const timeoutSeconds = useSettings(SETTINGS).taskHeartbeatTimeoutSeconds;
  if (record.status !== "working" || Date.now() - record.heartbeatAt <= timeoutSeconds * 1000) return undefined;
  const message = `The task stopped: the server running it stopped reporting (no heartbeat for ${timeoutSeconds} s)`;
  return endedTask(record, { status: "failed", statusMessage: message, error: { code: -32603, message } });
}

/** The task as it stands: a working task whose round stopped reporting is marked failed first. */
export async function checkedHeartbeat(record: TaskRecord): Promise<TaskRecord> {
  if (!lostHeartbeat(record)) return record;
  return (await updateTaskRecord(record.id, lostHeartbeat)) ?? record;
}

/** The task's record once the round's outcome (a result, questions, or an error) is in. */
function settle(record: TaskRecord, outcome: unknown): TaskRecord {
  if (isInputRequiredOutcome(outcome)) {
    const round = record.round + 1;
    const asks = Object.fromEntries(
      Object.entries(outcome.inputRequests).map(([key, request]) => [`${key}.${round}`, { key, request }]),
    );
    return {
      ...record,
      status: "input_required",
      statusMessage: "Waiting for an answer",
      round,
      asks,
      answers: {},
      state: outcome.state,
    };
  }
  if (outcome instanceof McpError)
    return endedTask(record, { status: "failed", statusMessage: outcome.message, error: errorBody(outcome) });
  if (outcome instanceof Error) {
    const message = `Internal error (reference ${logWithReference(`task ${record.id} (${record.tool})`, outcome)})`;
    return endedTask(record, { status: "failed", statusMessage: message, error: { code: -32603, message } });
  }
  const result = outcome as Record<string, unknown>;
  return endedTask(record, {
    status: "completed",
    statusMessage: result.isError ? "Finished with an error" : "Finished",
    result: shapeResult(result, "complete"),
  });
}

/** A round's channel: nothing streams from a task; progress becomes its status message (tasks have no progress notifications). */
class TaskChannel extends ResponseChannel {
  private reported = Promise.resolve<unknown>(undefined);

  constructor(private readonly taskId: string) {
    super();
    this.finish("");
  }

  override progress(progress: number, total?: number, message?: string): void {
    const statusMessage = message ?? (total === undefined ? `${progress}` : `${progress} of ${total}`);
    // In order, and never failing the round: a status message is a courtesy.
    this.reported = this.reported
      .then(() =>
        updateTaskRecord(this.taskId, (current) =>
          current.status === "working" ? { ...current, statusMessage } : undefined,
        ),
      )
      .catch((error) => logError(`task ${this.taskId}: reporting progress failed`, error));
  }
}

/** The context a round runs with: the creating request's client and caller, the task's answers and state. */
function roundContext(record: TaskRecord, event: H3Event, signal: AbortSignal): McpContext {
  const params = { name: record.tool, arguments: record.arguments };
  return {
    id: record.id,
    method: "tools/call",
    params,
    protocolVersion: record.caller.protocolVersion,
    clientCapabilities: record.caller.clientCapabilities,
    target: resolveTarget("tools/call", params),
    principal: record.caller.auth.principal,
    caller: record.caller.key,
    auth: record.caller.auth,
    signal,
    inputResponses: record.answers ?? {},
    ...(record.state ? { state: { data: record.state } } : {}),
    event,
    channel: new TaskChannel(record.id),
  };
}

async function runRound(event: H3Event, taskId: string): Promise<void> {
  const record = await readTaskRecord(taskId);
  const tool = record && registry().toolsByName.get(record.tool);
  if (!record || !tool?.options.task || record.status !== "working") return;
  const cancelled = new AbortController();
  const heartbeat = setInterval(() => {
    void updateTaskRecord(taskId, (current) => {
      if (isTerminal(current.status)) {
        cancelled.abort();
        return undefined;
      }
      return { ...current, heartbeatAt: Date.now() };
    }).catch((error) => logError(`task ${taskId}: heartbeat failed`, error));
  }, heartbeatIntervalMs());
  let outcome: unknown;
  try {
    outcome = await tool.run(record.arguments, roundContext(record, event, cancelled.signal));
  } catch (error) {
    outcome = error;
  } finally {
    clearInterval(heartbeat);
  }
  await updateTaskRecord(taskId, (current) => (current.status === "working" ? settle(current, outcome) : undefined));
}

/** Runs the task's next round after the response, on this instance. */
export function startRound(event: H3Event, taskId: string): void {
  keepAlive(
    event,
    runRound(event, taskId).catch((error) => logError(`task ${taskId}: a round could not finish`, error)),
  );
}
