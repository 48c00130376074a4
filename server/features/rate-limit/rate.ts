/** A rate, like `600/60s`: at most `limit` requests per `windowMs` (NITRO_MCP_RATE_LIMIT, a definition's `rateLimit`). */
export interface Rate {
  readonly limit: number;
  readonly windowMs: number;
}

const RATE = /^([1-9][0-9]{0,8})\/([1-9][0-9]{0,9})(ms|s|m|h)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** Parses a rate like `600/60s` (units ms, s, m, h); `what` names the setting or definition in the error. */
export function parseRate(raw: string, what: string): Rate {
  const match = RATE.exec(raw.trim());
  if (!match)
    throw new Error(`${what} must look like 600/60s (requests/window, window in ms, s, m or h), got "${raw}"`);
  const rate = { limit: Number(match[1]), windowMs: Number(match[2]) * UNIT_MS[match[3] as keyof typeof UNIT_MS] };
  // Finer than a request per millisecond is no limit at all, and below what a time in ms counts exactly.
  if (rate.windowMs < rate.limit) throw new Error(`${what} allows at most one request per millisecond, got "${raw}"`);
  return rate;
}
