/** Atomic operations on Redis via the driver's client: `SET NX EX`, Lua (one step) for compare-and-set and GCRA; Upstash alike. */
import type { AtomicStore } from "../mcp/atomic-store";
import type { Consumed } from "../mcp/gcra";

/** KEYS[1]: the key; ARGV: expected value, next value, ttl in seconds. */
const COMPARE_AND_SET = `if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("SET", KEYS[1], ARGV[2], "EX", ARGV[3]) return 1 end return 0`;

/**
 * GCRA (see `gcra.ts`, same steps) in one script, on Redis's clock so every instance counts against one time.
 * KEYS[1]: the key; ARGV: limit, window in ms. Returns {1, 0} when allowed, {0, retry after ms} when refused.
 */
const CONSUME = `local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
local interval = window / limit
local tat = math.max(tonumber(redis.call("GET", KEYS[1]) or now), now) + interval
if tat - now > window + math.min(0.5, interval / 2) then return {0, math.ceil(tat - window - now)} end
redis.call("SET", KEYS[1], string.format("%.3f", tat), "PX", math.ceil(tat - now))
return {1, 0}`;

/** The subset of a Redis client these operations use. */
interface RedisCommands {
  get(key: string): Promise<string | null>;
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  eval(script: string, key: string, args: string[]): Promise<unknown>;
  del(key: string): Promise<unknown>;
}

function redisCommandsStore(name: string, prefix: string, commands: RedisCommands): AtomicStore {
  const at = (key: string) => `${prefix}:atomic:${key}`;
  return {
    name,
    get: (key) => commands.get(at(key)),
    setIfAbsent: (key, value, ttlSeconds) => commands.setIfAbsent(at(key), value, ttlSeconds),
    compareAndSet: async (key, expected, next, ttlSeconds) =>
      Number(await commands.eval(COMPARE_AND_SET, at(key), [expected, next, String(ttlSeconds)])) === 1,
    delete: async (key) => void (await commands.del(at(key))),
    consume: async (key, limit, windowMs): Promise<Consumed> => {
      const [allowed, retryAfterMs] = (await commands.eval(CONSUME, at(key), [String(limit), String(windowMs)])) as [number, number];
      return { allowed: Number(allowed) === 1, retryAfterMs: Number(retryAfterMs) };
    },
  };
}

/** The ioredis client of unstorage's `redis` driver. */
interface IoRedisClient {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ex: "EX", ttl: number, nx: "NX"): Promise<"OK" | null>;
  eval(script: string, keys: number, ...args: string[]): Promise<unknown>;
  del(key: string): Promise<number>;
}

export function ioRedisAtomicStore(client: IoRedisClient, prefix: string): AtomicStore {
  return redisCommandsStore("Redis", prefix, {
    get: (key) => client.get(key),
    setIfAbsent: async (key, value, ttlSeconds) => (await client.set(key, value, "EX", ttlSeconds, "NX")) === "OK",
    eval: (script, key, args) => client.eval(script, 1, key, ...args),
    del: (key) => client.del(key),
  });
}

/** The `@upstash/redis` client of unstorage's `upstash` driver. */
interface UpstashClient {
  get(key: string): Promise<unknown>;
  set(key: string, value: string, options: { nx: true; ex: number }): Promise<unknown>;
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
  del(key: string): Promise<number>;
}

export function upstashAtomicStore(client: UpstashClient, prefix: string): AtomicStore {
  return redisCommandsStore("Upstash Redis", prefix, {
    // Upstash decodes JSON-looking values; ask for text back by storing text and stringifying what comes.
    get: async (key) => {
      const value = await client.get(key);
      return value === null || value === undefined ? null : typeof value === "string" ? value : JSON.stringify(value);
    },
    setIfAbsent: async (key, value, ttlSeconds) => (await client.set(key, value, { nx: true, ex: ttlSeconds })) === "OK",
    eval: (script, key, args) => client.eval(script, [key], args),
    del: (key) => client.del(key),
  });
}
