/**
 * One request counted against a limit in one atomic step of the store the server started with (GCRA, `gcra.ts`): a Lua
 * script on Redis and Upstash, on Redis's clock so instances with skewed clocks agree; a Durable Object per key on Workers
 * (`durable-object.ts`); in this process's memory, a table of its own; on the development folder, a compare-and-set over
 * the core's atomic operations, tried again when another process changed the key in between.
 */
import type { AtomicStore, SelectedStorage } from "../../mcp/atomic-store";
import { guarded } from "../../mcp/storage-guard";
import { gcraStep, type Consumed } from "./gcra";

export type Consume = (key: string, limit: number, windowMs: number) => Promise<Consumed>;

/** KEYS[1]: the key; ARGV: limit, window in ms. Returns {1, 0} when allowed, {0, retry after ms} when refused. */
const CONSUME = `local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
local interval = window / limit
local tat = math.max(tonumber(redis.call("GET", KEYS[1]) or now), now) + interval
if tat - now > window + math.min(0.5, interval / 2) then return {0, math.ceil(tat - window - now)} end
redis.call("SET", KEYS[1], string.format("%.3f", tat), "PX", math.ceil(tat - now))
return {1, 0}`;

type AtomicSteps = Pick<AtomicStore, "get" | "setIfAbsent" | "compareAndSet">;

/** The GCRA step over `get` and a compare-and-set: exact under any concurrency, since a write only lands on what was read. */
export async function consumeWith(store: AtomicSteps, key: string, limit: number, windowMs: number): Promise<Consumed> {
  for (;;) {
    const stored = await store.get(key);
    const { tat, ttlMs, ...consumed } = gcraStep(stored === null ? null : Number(stored), Date.now(), limit, windowMs);
    if (!consumed.allowed) return consumed;
    const ttlSeconds = Math.ceil(ttlMs / 1000);
    const written =
      stored === null
        ? store.setIfAbsent(key, String(tat), ttlSeconds)
        : store.compareAndSet(key, stored, String(tat), ttlSeconds);
    if (await written) return consumed;
  }
}

interface Clients {
  redis: { eval(script: string, keys: number, ...args: string[]): Promise<unknown> };
  upstash: { eval(script: string, keys: string[], args: string[]): Promise<unknown> };
  durable: { idFromName(name: string): unknown; get(id: unknown): { rateLimitConsume: Consume } };
}

const consumed = (answer: unknown): Consumed => {
  const [allowed, retryAfterMs] = answer as [number, number];
  return { allowed: Number(allowed) === 1, retryAfterMs: Number(retryAfterMs) };
};

/** On Workers: a Durable Object per key, which counts with its own atomic operations (`durable-object.ts`). */
const durableCounting =
  (loaded: Promise<unknown>): Consume =>
  async (key, limit, windowMs) => {
    const namespace = (await loaded) as Clients["durable"];
    return namespace.get(namespace.idFromName(key)).rateLimitConsume(key, limit, windowMs);
  };

/** On Redis and Upstash: the script, through the store's own client, on the keys of its atomic operations. */
function scriptCounting({ kind, loaded, keyPrefix = "" }: NonNullable<SelectedStorage["client"]>): Consume {
  if (kind === "redis")
    return async (key, limit, windowMs) =>
      consumed(await ((await loaded) as Clients["redis"]).eval(CONSUME, 1, keyPrefix + key, `${limit}`, `${windowMs}`));
  return async (key, limit, windowMs) =>
    consumed(
      await ((await loaded) as Clients["upstash"]).eval(CONSUME, [keyPrefix + key], [`${limit}`, `${windowMs}`]),
    );
}

/** A key table this large is swept of expired keys (a past TAT: a whole budget again), then not before it doubles. */
const SWEEP_AT_KEYS = 10_000;

/** This process's memory (no driver: Nitro's in-memory default): a table of the feature's own, each count one synchronous step. */
function memoryCounting(): Consume {
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

/** The development folder, which processes may share: one at a time per key here, so a compare-and-set only loses to another. */
function inProcessCounting(atomic: AtomicStore): Consume {
  const tails = new Map<string, Promise<unknown>>();
  const settled = () => {};
  return (key, limit, windowMs) => {
    const run = (tails.get(key) ?? Promise.resolve()).then(() => consumeWith(atomic, key, limit, windowMs));
    const tail = run.then(settled, settled);
    tails.set(key, tail);
    void tail.then(() => tails.get(key) === tail && tails.delete(key));
    return run;
  };
}

/** How this server counts, or undefined when its store has no atomic operations. */
export function consumerFor(selected: SelectedStorage | undefined): Consume | undefined {
  if (!selected?.atomic) return undefined;
  const { name, client } = selected;
  // Bounded and traced like any storage operation (a fault: StorageUnavailableError).
  const guard = (consume: Consume) => guarded({ name, consume }).consume;
  // A Worker's store is always the Durable Object, and its preset is written in at build time: its bundle has nothing else.
  const onWorkers = import.meta.preset === "cloudflare-durable";
  if (client?.kind === "durable") return guard(durableCounting(client.loaded));
  if (onWorkers) return undefined;
  if (client) return guard(scriptCounting(client));
  return selected.driver ? guard(inProcessCounting(selected.atomic)) : memoryCounting();
}
