/**
 * GCRA, the rate-limit arithmetic, for the stores' rate counters (`<store>/counter.ts`), each one atomic step of its store:
 * a key keeps its theoretical arrival time (TAT), when its budget is whole again; each request pushes it `windowMs / limit`
 * on, and one that would push it over `windowMs` past now is refused. A whole budget may burst at once (so one window lets
 * through up to twice the limit less one). Exact under any concurrency: a store counts in one atomic step (a script, a
 * table of its own with synchronous steps), or with `countWith`, whose write lands only on what it read.
 */
export interface GcraStep {
  readonly allowed: boolean;
  /** When refused: how long until one more request would be allowed (0 when allowed). */
  readonly retryAfterMs: number;
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

/** A store's atomic steps (`AtomicStore`), or a table of the store's own whose steps are synchronous. */
interface AtomicSteps {
  get(key: string): string | null | Promise<string | null>;
  setIfAbsent(key: string, value: string, ttlSeconds: number): boolean | Promise<boolean>;
  compareAndSet(key: string, expected: string, next: string, ttlSeconds: number): boolean | Promise<boolean>;
}

/** The step over `get` and a compare-and-set: exact under any concurrency, since a write only lands on what was read. */
export async function countWith(store: AtomicSteps, key: string, limit: number, windowMs: number) {
  for (;;) {
    const stored = await store.get(key);
    const { tat, ttlMs, ...counted } = gcraStep(stored === null ? null : Number(stored), Date.now(), limit, windowMs);
    if (!counted.allowed) return counted;
    const ttlSeconds = Math.ceil(ttlMs / 1000);
    const written =
      stored === null
        ? store.setIfAbsent(key, String(tat), ttlSeconds)
        : store.compareAndSet(key, stored, String(tat), ttlSeconds);
    if (await written) return counted;
  }
}
