/** The operator's log: what went wrong and why, for the server's output only (clients get a reference at most). */

export const logInfo = (message: string): void => console.info(`[mcp] ${message}`);
export const logWarning = (message: string): void => console.warn(`[mcp] ${message}`);
export const logError = (message: string, error?: unknown): void =>
  error === undefined ? console.error(`[mcp] ${message}`) : console.error(`[mcp] ${message}:`, error);

/** Logs `error` under a fresh reference and returns the reference, to quote in what the client sees. */
export function logWithReference(context: string, error: unknown): string {
  const reference = crypto.randomUUID();
  logError(`${context} (reference ${reference})`, error);
  return reference;
}
