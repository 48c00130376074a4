/**
 * What `subscriptions/listen` carries for tasks (`params.notifications.taskIds`, the tasks extension): the caller's
 * tasks among those asked for are honoured, and the stream then carries `notifications/tasks` (the task as `tasks/get`
 * shows it) each time one of them changes, wherever the change happened, until they have all ended, the client goes
 * away, or the core's stream deadline has passed. The watch reads the shared store; nothing is kept in memory between requests.
 */
import { declaresTasks, tasksExtensionRequired } from "./task-creation";
import { isTerminal, readTaskRecord, type TaskRecord } from "./task-records";
import { checkedHeartbeat } from "./task-rounds";
import { detailedTask } from "./task-views";
import { invalidParams, notificationMessage, wait, type ListenSource, type McpContext } from "../../mcp/kit";

const WATCH_INTERVAL_MS = 500;
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
async function watchTasks(
  mcp: McpContext,
  tasks: TaskRecord[],
  tag: Record<string, unknown>,
  deadline: number,
): Promise<void> {
  const seen = new Map(tasks.map((task) => [task.id, ""]));
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
    if (seen.size > 0) await wait(Math.min(WATCH_INTERVAL_MS, deadline - Date.now()), mcp.signal);
  }
}

export const taskWatch: ListenSource = {
  async open(mcp, notifications) {
    const owned = await Promise.all(
      requestedTaskIds(mcp, notifications).map((id) => readTaskRecord(id, mcp.principal)),
    );
    const tasks = owned.filter((task): task is TaskRecord => task !== undefined);
    return {
      honoured: tasks.length ? { taskIds: tasks.map((task) => task.id) } : {},
      watch: (tag, deadline) => watchTasks(mcp, tasks, tag, deadline),
    };
  },
};
