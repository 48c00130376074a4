/**
 * The rate-limit arithmetic every store runs in its one atomic step (Redis and Upstash run the same
 * steps in Lua, in `atomic-redis.ts`): GCRA, the generic cell rate algorithm. A key keeps one number,
 * its theoretical arrival time (TAT): when the caller's budget would be whole again. Each request
 * pushes it on by `windowMs / limit`; a request that would push it more than `windowMs` past now is
 * refused. So `600/60s` is a budget of 600 that refills at 10 a second: a burst of the whole budget is
 * allowed at once, then one request per `windowMs / limit` (over any one window, at most twice the
 * limit less one gets through, the price of allowing a burst). Exact under any concurrency as long as
 * the read and the write are one step.
 */

export interface Consumed {
  readonly allowed: boolean;
  /** When refused: how long until one more request would be allowed (0 when allowed). */
  readonly retryAfterMs: number;
}

export interface GcraStep extends Consumed {
  /** The TAT to store (only when allowed), and for how long it matters. */
  readonly tat: number;
  readonly ttlMs: number;
}

/** One request against the stored TAT (null when absent or expired), at `now` (ms). */
export function gcraStep(stored: number | null, now: number, limit: number, windowMs: number): GcraStep {
  const interval = windowMs / limit;
  const tat = Math.max(stored ?? now, now) + interval;
  // Half a millisecond of slack (less for sub-millisecond intervals) absorbs floating-point error: the k-th request of a burst lands at k × interval.
  if (tat - now > windowMs + Math.min(0.5, interval / 2)) return { allowed: false, retryAfterMs: Math.ceil(tat - windowMs - now), tat, ttlMs: 0 };
  return { allowed: true, retryAfterMs: 0, tat, ttlMs: Math.ceil(tat - now) };
}
