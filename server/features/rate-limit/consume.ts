/**
 * One request counted against a limit in one atomic step of the store the server started with (GCRA, `gcra.ts`): a Lua
 * script on Redis and Upstash, on Redis's clock so instances with skewed clocks agree; a Durable Object per key on Workers
 * (`durable-object.ts`); and on the stores of one process (memory, files) a compare-and-set over the core's atomic
 * operations, tried again when another request changed the key in between.
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
    const written = stored === null ? store.setIfAbsent(key, String(tat), ttlSeconds) : store.compareAndSet(key, stored, String(tat), ttlSeconds);
    if (await written) return consumed;
  }
}

interface Clients {
  redis: { eval(script: string, keys: number, ...args: string[]): Promise<unknown> };
  upstash: { eval(script: string, keys: string[], args: string[]): Promise<unknown> };
  durable: { idFromName(name: string): unknown; get(id: unknown): { rateLimitConsume: Consume } };
}

const consumed = ([allowed, retryAfterMs]: [number, number]): Consumed => ({ allowed: Number(allowed) === 1, retryAfterMs: Number(retryAfterMs) });

/** How this server counts, or undefined when its store has no atomic operations. */
export function consumerFor(selected: SelectedStorage | undefined, atomic: AtomicStore | undefined): Consume | undefined {
  const client = selected?.client;
  if (!client) return atomic && ((key, limit, windowMs) => consumeWith(atomic, key, limit, windowMs));
  const loaded = client.loaded as Promise<never>;
  const key = (name: string) => `${client.keyPrefix ?? ""}${name}`;
  const counting: Record<keyof Clients, Consume> = {
    redis: async (name, limit, windowMs) => consumed((await (await loaded as Clients["redis"]).eval(CONSUME, 1, key(name), `${limit}`, `${windowMs}`)) as [number, number]),
    upstash: async (name, limit, windowMs) => consumed((await (await loaded as Clients["upstash"]).eval(CONSUME, [key(name)], [`${limit}`, `${windowMs}`])) as [number, number]),
    durable: async (name, limit, windowMs) => {
      const namespace = (await loaded) as Clients["durable"];
      return namespace.get(namespace.idFromName(name)).rateLimitConsume(name, limit, windowMs);
    },
  };
  // Bounded and traced like any storage operation (a fault: StorageUnavailableError).
  return guarded({ name: selected.name, consume: counting[client.kind] }).consume;
}
