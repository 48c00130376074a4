/**
 * GCRA, the rate-limit arithmetic, for the stores' rate counters (`<store>/counter.ts`), each one atomic step of its store:
 * a key keeps its theoretical arrival time (TAT), when its budget is whole again; each request pushes it `windowMs / limit`
 * on, and one that would push it over `windowMs` past now is refused. A whole budget may burst at once (so one window lets
 * through up to twice the limit less one). Exact under any concurrency, since the read and the write are one step.
 */
import type { AtomicStore, RateCounter } from "../mcp/kit";

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

/**
 * The same step in Lua, for Redis and Upstash: on Redis's clock, so instances with skewed clocks agree. KEYS[1]: the key;
 * ARGV: limit, window in ms. Returns {1, 0} when allowed, {0, retry after ms} when refused.
 */
export const GCRA_SCRIPT = `local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
local interval = window / limit
local tat = math.max(tonumber(redis.call("GET", KEYS[1]) or now), now) + interval
if tat - now > window + math.min(0.5, interval / 2) then return {0, math.ceil(tat - window - now)} end
redis.call("SET", KEYS[1], string.format("%.3f", tat), "PX", math.ceil(tat - now))
return {1, 0}`;

/** What the script answers, read. */
export const scriptAnswer = (answer: unknown): Awaited<ReturnType<RateCounter>> => {
  const [allowed, retryAfterMs] = answer as [number, number];
  return { allowed: Number(allowed) === 1, retryAfterMs: Number(retryAfterMs) };
};

type AtomicSteps = Pick<AtomicStore, "get" | "setIfAbsent" | "compareAndSet">;

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
