import { wait } from "../server/mcp/author";

/**
 * Waits `ms` milliseconds, or less: it returns as soon as `signal` fires (the client went away, or
 * the task was cancelled). Check `signal.aborted` afterwards to stop the work.
 *
 * @example
 * for (const item of items) {
 *   await sleep(200, mcp.signal);
 *   if (mcp.signal.aborted) return "Cancelled.";
 *   sendProgress(mcp, ++done, items.length);
 * }
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return wait(ms, signal);
}
