/**
 * Request-scoped notifications: progress and (deprecated) log messages, which travel on the request's own
 * response (it then becomes an SSE stream); and resource updates, which reach the clients listening for them.
 */
import { LOG_LEVELS, logWarning, notificationMessage, publishResourceChange, type LoggingLevel, type McpContext } from "../server/mcp/author";

/**
 * Reports progress on the request's own response stream, when the client asked for it
 * with `_meta.progressToken`. Values must increase; a non-increasing value is dropped.
 * Inside a task, progress becomes the task's status message (what `tasks/get` shows).
 *
 * @example
 * sendProgress(mcp, 50, 100, "Half way");
 */
export function sendProgress(mcp: McpContext, progress: number, total?: number, message?: string): void {
  if (mcp.task) return mcp.task.progress(progress, total, message);
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
 * Sends a `notifications/message` log entry on the request's response stream, only when
 * the client asked for logs with `_meta["io.modelcontextprotocol/logLevel"]` and only at or
 * above that level. (Logging is deprecated in 2026-07-28; prefer server-side telemetry. Tasks carry no logs.)
 *
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
 * Says that a resource changed: every client listening for it (`subscriptions/listen` with
 * `resourceSubscriptions`), on any instance, gets `notifications/resources/updated` for `uri`. Call it after
 * the change is stored. For a resource that differs per caller, pass `onlyFor: mcp.principal` so that
 * only that caller's streams hear of it. Never throws: with the bus unreachable, the update is lost (and logged);
 * without the message bus feature, nobody listens and it does nothing.
 *
 * @example
 * await deleteNote(id);
 * await resourceChanged(`note://${id}`);
 */
export async function resourceChanged(uri: string, options: { onlyFor?: string } = {}): Promise<void> {
  await publishResourceChange(uri, options.onlyFor);
}
