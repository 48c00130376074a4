/** A handler's notifications: progress and logs on its own response (then an SSE stream), resource updates to listeners. */
import {
  LOG_LEVELS,
  notificationMessage,
  publishResourceChange,
  type LoggingLevel,
  type McpContext,
} from "../server/mcp/kit";

/**
 * Reports progress on the request's own response stream, when the client asked for it with `_meta.progressToken`. Values must
 * increase; a non-increasing value is dropped. Where a feature reports progress elsewhere (a status it keeps), it goes there.
 * @example
 * sendProgress(mcp, 50, 100, "Half way");
 */
export function sendProgress(mcp: McpContext, progress: number, total?: number, message?: string): void {
  mcp.channel.progress(progress, total, message);
}

/**
 * Sends a `notifications/message` log entry on the request's response stream, when the client asked for logs at or
 * below `level` (`_meta["io.modelcontextprotocol/logLevel"]`); where a feature answers a call elsewhere, none.
 * @deprecated MCP 2026-07-28 deprecates logging to the client and asks new code not to adopt it; it stays for clients that
 * still show it. For what the operator needs, write the server's log (`logInfo`) or a trace;
 * for what the person needs, `sendProgress` or the result.
 * @example
 * sendLog(mcp, "info", { step: "fetched 3 notes" });
 */
export function sendLog(mcp: McpContext, level: LoggingLevel, data: unknown, logger?: string): void {
  if (mcp.logLevel === undefined || mcp.channel.closed) return;
  if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(mcp.logLevel)) return;
  // An undefined `logger` is left out of the JSON.
  mcp.channel.send(notificationMessage("notifications/message", { level, data, logger }));
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
