/** Server-side logging of unexpected errors: the details stay in the log, the client gets a reference. */

/** Logs `error` under a fresh reference and returns the reference, to quote in what the client sees. */
export function logWithReference(context: string, error: unknown): string {
  const reference = crypto.randomUUID();
  console.error(`[mcp] ${context} (reference ${reference}):`, error);
  return reference;
}
