/**
 * What the Redis and Upstash stores share: their atomic operations through the driver's client (`SET NX EX`, Lua in one
 * step for compare-and-set), where those keys live, and the client loaded without holding up the start.
 */
import type { Driver } from "unstorage";
import type { AtomicStore } from "../../mcp/kit";

/** KEYS[1]: the key; ARGV: expected value, next value, ttl in seconds. */
const COMPARE_AND_SET = `if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("SET", KEYS[1], ARGV[2], "EX", ARGV[3]) return 1 end return 0`;

/** The prefix of the store's keys; the atomic ones (a rate counter's too) live under `mcp:atomic:`. */
export const BASE = "mcp";
export const ATOMIC_PREFIX = `${BASE}:atomic:`;
const at = (key: string) => `${ATOMIC_PREFIX}${key}`;

/** The ioredis client of unstorage's `redis` driver. */
interface IoRedisClient {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ex: "EX", ttl: number, nx: "NX"): Promise<"OK" | null>;
  eval(script: string, keys: number, ...args: string[]): Promise<unknown>;
  del(key: string): Promise<number>;
}

export function ioRedisAtomicStore(client: IoRedisClient): AtomicStore {
  return {
    name: "Redis",
    get: (key) => client.get(at(key)),
    setIfAbsent: async (key, value, ttlSeconds) => (await client.set(at(key), value, "EX", ttlSeconds, "NX")) === "OK",
    compareAndSet: async (key, expected, next, ttlSeconds) =>
      Number(await client.eval(COMPARE_AND_SET, 1, at(key), expected, next, String(ttlSeconds))) === 1,
    delete: async (key) => void (await client.del(at(key))),
  };
}

/** The `@upstash/redis` client of unstorage's `upstash` driver. */
interface UpstashClient {
  get(key: string): Promise<unknown>;
  set(key: string, value: string, options: { nx: true; ex: number }): Promise<unknown>;
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
  del(key: string): Promise<number>;
}

export function upstashAtomicStore(client: UpstashClient): AtomicStore {
  return {
    name: "Upstash Redis",
    // Upstash decodes JSON-looking values; ask for text back by storing text and stringifying what comes.
    get: async (key) => {
      const value = await client.get(at(key));
      return value === null || value === undefined ? null : typeof value === "string" ? value : JSON.stringify(value);
    },
    setIfAbsent: async (key, value, ttlSeconds) =>
      (await client.set(at(key), value, { nx: true, ex: ttlSeconds })) === "OK",
    compareAndSet: async (key, expected, next, ttlSeconds) =>
      Number(await client.eval(COMPARE_AND_SET, [at(key)], [expected, next, String(ttlSeconds)])) === 1,
    delete: async (key) => void (await client.del(at(key))),
  };
}

/** A store whose client loads at start-up, not awaited (ioredis is a tenth of a cold start): each operation waits for it. */
export interface LoadedStore {
  readonly driver: Driver;
  readonly atomic: AtomicStore;
  /** The store's own client, for its port files. */
  readonly client: unknown;
}

/** The driver methods unstorage calls on a store like Redis (optional ones it falls back from when absent). */
const DRIVER_METHODS = ["hasItem", "getItem", "setItem", "removeItem", "getKeys", "clear", "dispose"] as const;
const ATOMIC_METHODS = ["get", "setIfAbsent", "compareAndSet", "delete"] as const;

type Method = (...args: unknown[]) => unknown;

export function lazyStore(
  name: string,
  load: () => Promise<LoadedStore>,
): { driver: Driver; atomic: AtomicStore; loadedClient: Promise<unknown> } {
  const loaded = load();
  const loadedClient = loaded.then((store) => store.client);
  loadedClient.catch(() => {}); // reported by each operation instead
  const forward = <T extends object>(pick: (store: LoadedStore) => T, methods: readonly string[]) =>
    Object.fromEntries(
      methods.map((method) => [
        method,
        async (...args: unknown[]) => (pick(await loaded) as Record<string, Method | undefined>)[method]?.(...args),
      ]),
    );
  return {
    driver: { name, ...forward((store) => store.driver, DRIVER_METHODS) } as unknown as Driver,
    atomic: { name, ...forward((store) => store.atomic, ATOMIC_METHODS) } as unknown as AtomicStore,
    loadedClient,
  };
}
