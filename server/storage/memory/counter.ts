/** The memory store's rate counter: a table of TATs in this process, each count one synchronous step (`../gcra.ts`). */
import type { RateCounter } from "../../mcp/kit";
import { gcraStep } from "../gcra";

/** A table this large is swept of expired keys (a past TAT: a whole budget again), then not before it doubles. */
const SWEEP_AT_KEYS = 10_000;

export default function memoryCounter(): RateCounter {
  const tats = new Map<string, number>();
  let sweepAt = SWEEP_AT_KEYS;
  return async (key, limit, windowMs) => {
    const now = Date.now();
    if (tats.size >= sweepAt) {
      for (const [stale, tat] of tats) if (tat <= now) tats.delete(stale);
      sweepAt = Math.max(SWEEP_AT_KEYS, tats.size * 2);
    }
    const { allowed, retryAfterMs, tat } = gcraStep(tats.get(key) ?? null, now, limit, windowMs);
    if (allowed) tats.set(key, tat);
    return { allowed, retryAfterMs };
  };
}
