/** A handler's notifications: progress and logs on its own response (then an SSE stream), resource updates to listeners. */
import {
  LOG_LEVELS,
  logWarning,
  notificationMessage,
  publishResourceChange,
  type LoggingLevel,
  type McpContext,
} from "../server/mcp/author";

/**
 * Reports progress on the request's own response stream, when the client asked for it with `_meta.progressToken`. Values must
 * increase; a non-increasing value is dropped. Inside a task, progress becomes the task's status message (what `tasks/get` shows).
 * @example
 * sendProgress(mcp, 50, 100, "Half way");
 */
export function sendProgress(mcp: McpContext, progress: number, total?: number, message?: string): void {
  if (mcp.task) {
    mcp.task.progress(progress, total, message);
    return;
  }
  if (mcp.progressToken === undefined || mcp.channel.closed) return;
  if (!mcp.channel.acceptProgress(progress)) {
    logWarning(`dropped a non-increasing progress value (${progress}) on ${mcp.method}`);
    return;
  }
  const params: Record<string, unknown> = { progressToken: mcp.progressToken, progress };
  if (total !== undefined) params.total = total;
  if (message !== undefined) params.message = message;
  mcp.channel.send(notificationMessage("notifications/progress", params));
}

/**
 * Sends a `notifications/message` log entry on the request's response stream, when the client asked for logs at or
 * below `level` (`_meta["io.modelcontextprotocol/logLevel"]`). Deprecated in 2026-07-28; tasks carry no logs.
 * @example
 * sendLog(mcp, "info", { step: "fetched 3 notes" });
 */
export function sendLog(mcp: McpContext, level: LoggingLevel, data: unknown, logger?: string): void {
  if (mcp.logLevel === undefined || mcp.channel.closed) return;
  if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(mcp.logLevel)) return;
  const params: Record<string, unknown> = { level, data };
  if (logger !== undefined) params.logger = logger;
  mcp.channel.send(notificationMessage("notifications/message", params));
}

/**
 * Says (once the change is stored) a resource changed: clients listening for `uri`, on any instance, get `notifications/resources/updated`;
 * `onlyFor: mcp.principal`: that caller's streams only. Never throws: an unreachable bus loses it (logged); without the message bus: no-op.
 * @example
 * await deleteNote(id);
 * await resourceChanged(`note://${id}`);
 */
export async function resourceChanged(uri: string, options: { onlyFor?: string } = {}): Promise<void> {
  await publishResourceChange(uri, options.onlyFor);
}
