/**
 * The rate counters of the Redis and Upstash stores (`counter.ts` here and in `../upstash/`): GCRA's step (`../gcra.ts`) as
 * one Lua script, run in one `EVAL` on Redis's clock, so instances with skewed clocks agree.
 */
import type { RateCounter } from "../../mcp/kit";

/** KEYS[1]: the key; ARGV: limit, window in ms. Returns {1, 0} when allowed, {0, retry after ms} when refused. */
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
