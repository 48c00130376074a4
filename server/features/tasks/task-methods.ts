/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` (the tasks extension). Each checks, in order: the
 * client declared the extension on this request (-32021), the task exists and belongs to the caller
 * (-32602 otherwise, the same answer for another principal's task as for no task at all). Any
 * instance answers any of them: the task lives in the shared store.
 */
import { declaresTasks, tasksExtensionRequired } from "./task-creation";
import { endedTask, isTerminal, readTaskRecord, updateTaskRecord, type TaskRecord } from "./task-records";
import { checkedHeartbeat, startRound } from "./task-rounds";
import { detailedTask } from "./task-views";
import { clip, invalidParams, isPlainObject, type McpContext, type MethodResult } from "../../mcp/kit";

/** The caller's task named by `params.taskId`, after the extension check; -32602 when there is none. */
async function callersTask(mcp: McpContext): Promise<TaskRecord> {
  if (!declaresTasks(mcp)) throw tasksExtensionRequired(`which ${mcp.method} belongs to`);
  const taskId = mcp.params.taskId;
  if (typeof taskId !== "string") throw invalidParams("params.taskId (a string) is required");
  const record = await readTaskRecord(taskId, mcp.principal);
  if (!record) throw invalidParams(`No task ${clip(taskId, 64)}: it does not exist, or it expired`);
  return record;
}

export async function getTask(mcp: McpContext): Promise<MethodResult> {
  return detailedTask(await checkedHeartbeat(await callersTask(mcp)));
}

/**
 * Answers to the task's questions. Keys that are not outstanding (never asked, already answered)
 * are ignored. Once every outstanding question has its answer, the task works again: its next
 * round starts on this instance.
 */
export async function updateTask(mcp: McpContext): Promise<MethodResult> {
  const { id } = await callersTask(mcp);
  const responses = mcp.params.inputResponses;
  if (!isPlainObject(responses))
    throw invalidParams("params.inputResponses must be an object mapping input request keys to responses");
  let resumed = false;
  await updateTaskRecord(id, (record) => {
    resumed = false;
    if (record.status !== "input_required") return undefined;
    const asks = { ...record.asks };
    const answers = { ...record.answers };
    // Own keys only: `__proto__` or `constructor` name no question.
    const answered = Object.keys(responses).filter((wireKey) => Object.hasOwn(asks, wireKey));
    // Nothing outstanding answered: nothing to write.
    if (answered.length === 0) return undefined;
    for (const wireKey of answered) {
      answers[asks[wireKey]!.key] = responses[wireKey];
      delete asks[wireKey];
    }
    if (Object.keys(asks).length > 0) return { ...record, asks, answers };
    resumed = true;
    return {
      ...record,
      status: "working",
      statusMessage: "Resumed",
      asks: undefined,
      answers,
      heartbeatAt: Date.now(),
    };
  });
  if (resumed) startRound(mcp.event, id);
  return {};
}

/** Cancels the task unless it has already ended (then the acknowledgement is the same). Its work stops at its next heartbeat. */
export async function cancelTask(mcp: McpContext): Promise<MethodResult> {
  const { id } = await callersTask(mcp);
  await updateTaskRecord(id, (record) =>
    isTerminal(record.status)
      ? undefined
      : endedTask(record, { status: "cancelled", statusMessage: "Cancelled by the client" }),
  );
  return {};
}
