import { wait } from "../server/mcp/kit";

/**
 * Waits `ms` milliseconds, or less: returns once `signal` fires (client gone, call cancelled); check `signal.aborted` afterwards.
 * @example
 * for (const item of items) {
 *   await sleep(200, mcp.signal);
 *   if (mcp.signal.aborted) return "Cancelled.";
 *   sendProgress(mcp, ++done, items.length);
 * }
 */
export const sleep: (ms: number, signal?: AbortSignal) => Promise<void> = wait;
