/** Atomic operations on Redis via the driver's client: `SET NX EX`, Lua (one step) for compare-and-set; Upstash alike. */
import type { AtomicStore } from "../mcp/atomic-store";

/** KEYS[1]: the key; ARGV: expected value, next value, ttl in seconds. */
const COMPARE_AND_SET = `if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("SET", KEYS[1], ARGV[2], "EX", ARGV[3]) return 1 end return 0`;

interface RedisCommands {
  get(key: string): Promise<string | null>;
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  eval(script: string, key: string, args: string[]): Promise<unknown>;
  del(key: string): Promise<unknown>;
}

/** Where the atomic keys live under the store's base (the rate limit's Lua script writes there too: `SelectedStorage.client`). */
export const atomicKeyPrefix = (base: string): string => `${base}:atomic:`;

function redisCommandsStore(name: string, prefix: string, commands: RedisCommands): AtomicStore {
  const at = (key: string) => `${atomicKeyPrefix(prefix)}${key}`;
  return {
    name,
    get: (key) => commands.get(at(key)),
    setIfAbsent: (key, value, ttlSeconds) => commands.setIfAbsent(at(key), value, ttlSeconds),
    compareAndSet: async (key, expected, next, ttlSeconds) =>
      Number(await commands.eval(COMPARE_AND_SET, at(key), [expected, next, String(ttlSeconds)])) === 1,
    delete: async (key) => void (await commands.del(at(key))),
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
    setIfAbsent: async (key, value, ttlSeconds) =>
      (await client.set(key, value, { nx: true, ex: ttlSeconds })) === "OK",
    eval: (script, key, args) => client.eval(script, [key], args),
    del: (key) => client.del(key),
  });
}
