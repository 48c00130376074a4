/**
 * What clients see of a task: the `Task` fields (in CreateTaskResult and notifications), and the
 * detailed task `tasks/get` answers, which inlines what its status calls for: the outstanding
 * questions (`input_required`), the result (`completed`) or the error (`failed`).
 */
import type { TaskRecord } from "./task-records";

export function publicTask(record: TaskRecord): Record<string, unknown> {
  return {
    taskId: record.id,
    status: record.status,
    ...(record.statusMessage ? { statusMessage: record.statusMessage } : {}),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
}

export function detailedTask(record: TaskRecord): Record<string, unknown> {
  const task = publicTask(record);
  switch (record.status) {
    case "input_required":
      return {
        ...task,
        inputRequests: Object.fromEntries(Object.entries(record.asks ?? {}).map(([key, ask]) => [key, ask.request])),
      };
    case "completed":
      return { ...task, result: record.result };
    case "failed":
      return { ...task, error: record.error };
    default:
      return task;
  }
}
