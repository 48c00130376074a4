/**
 * `subscriptions/listen`. The acknowledgement comes first and says which of the requested
 * notifications this server honours:
 * - list changes: none. Its lists only change with a deploy, so it declares no `listChanged`;
 * - task status (`taskIds`, the tasks extension): the caller's tasks among those asked for. The
 *   stream then carries `notifications/tasks` (the task as `tasks/get` shows it) each time one of
 *   them changes, wherever the change happened, until they have all ended, the client goes away, or
 *   WATCH_LIMIT_MS has passed. The watch reads the shared store; nothing is kept in memory between
 *   requests.
 * With nothing to carry, the subscription ends gracefully at once.
 */
import type { McpContext } from "../context";
import { invalidParams } from "../errors";
import { isPlainObject } from "../internal/object";
import { wait } from "../internal/time";
import { notificationMessage } from "../jsonrpc";
import { META } from "../protocol";
import { declaresTasks, tasksExtensionRequired } from "../tasks/task-creation";
import { isTerminal, readTaskRecord, type TaskRecord } from "../tasks/task-records";
import { checkedHeartbeat } from "../tasks/task-rounds";
import { detailedTask } from "../tasks/task-views";
import type { MethodResult } from "./types";

const WATCH_INTERVAL_MS = 500;
const WATCH_LIMIT_MS = 15 * 60 * 1000;
const MAX_TASK_IDS = 100;

function requestedTaskIds(mcp: McpContext, notifications: Record<string, unknown>): string[] {
  const taskIds = notifications.taskIds;
  if (taskIds === undefined) return [];
  if (!Array.isArray(taskIds) || taskIds.length > MAX_TASK_IDS || !taskIds.every((id) => typeof id === "string")) {
    throw invalidParams(`params.notifications.taskIds must be a list of at most ${MAX_TASK_IDS} task ids`);
  }
  if (!declaresTasks(mcp)) throw tasksExtensionRequired("which task notifications belong to");
  return taskIds as string[];
}

/** Sends `notifications/tasks` for each watched task when it changes, until every one has ended. */
async function watchTasks(mcp: McpContext, tasks: TaskRecord[], tag: Record<string, unknown>): Promise<void> {
  const seen = new Map(tasks.map((task) => [task.id, ""]));
  const deadline = Date.now() + WATCH_LIMIT_MS;
  while (seen.size > 0 && !mcp.signal.aborted && Date.now() < deadline) {
    for (const id of seen.keys()) {
      const found = await readTaskRecord(id, mcp.principal);
      const task = found && (await checkedHeartbeat(found));
      if (!task) {
        seen.delete(id); // expired
        continue;
      }
      if (task.lastUpdatedAt !== seen.get(id)) {
        mcp.channel.send(notificationMessage("notifications/tasks", { ...detailedTask(task), _meta: tag }));
        seen.set(id, task.lastUpdatedAt);
      }
      if (isTerminal(task.status)) seen.delete(id);
    }
    if (seen.size > 0) await wait(WATCH_INTERVAL_MS, mcp.signal);
  }
}

export async function listen(mcp: McpContext): Promise<MethodResult> {
  const notifications = mcp.params.notifications ?? {};
  if (!isPlainObject(notifications)) throw invalidParams("params.notifications must be an object");
  const owned = await Promise.all(requestedTaskIds(mcp, notifications).map((id) => readTaskRecord(id, mcp.principal)));
  const tasks = owned.filter((task): task is TaskRecord => task !== undefined);
  const tag = { [META.subscriptionId]: mcp.id };
  const honoured = tasks.length ? { taskIds: tasks.map((task) => task.id) } : {};
  mcp.channel.send(notificationMessage("notifications/subscriptions/acknowledged", { _meta: tag, notifications: honoured }));
  await watchTasks(mcp, tasks, tag);
  return { _meta: tag };
}
