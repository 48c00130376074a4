/**
 * GCRA, the rate-limit arithmetic, run in one atomic step of the store (`consume.ts`; in Lua on Redis and Upstash). A
 * key keeps its theoretical arrival time (TAT), when its budget is whole again; each request pushes it `windowMs / limit`
 * on, and one that would push it over `windowMs` past now is refused. A whole budget may burst at once (so one window
 * lets through up to twice the limit less one). Exact under any concurrency, since the read and the write are one step.
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
  if (tat - now > windowMs + Math.min(0.5, interval / 2))
    return { allowed: false, retryAfterMs: Math.ceil(tat - windowMs - now), tat, ttlMs: 0 };
  return { allowed: true, retryAfterMs: 0, tat, ttlMs: Math.ceil(tat - now) };
}
