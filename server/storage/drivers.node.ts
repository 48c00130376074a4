/** The stores of a Node or Vercel build, from the environment: Redis, Upstash, a folder (development), else memory. */
import type { EventEmitter } from "node:events";
import fsLite from "unstorage/drivers/fs-lite";
import { logInfo, logWarning } from "../mcp/log";
import type { SelectedStorage } from "../mcp/atomic-store";
import { filesAtomicStore } from "./atomic-files";
import { memoryAtomicStore } from "./atomic-memory";
import { atomicKeyPrefix, ioRedisAtomicStore, upstashAtomicStore } from "./atomic-redis";
import { lazyStore } from "./lazy";

const BASE = "mcp";
/** While Redis is down a request fails in this time (503) instead of queueing; the client reconnects meanwhile. */
const REDIS_COMMAND_TIMEOUT_MS = 2000;

/** One log line when Redis becomes unreachable and one when it is back (ioredis would log every reconnection attempt). */
function reportConnectionChanges(client: EventEmitter): void {
  let down = false;
  client.on("error", (error: Error) => {
    if (down) return;
    down = true;
    logWarning(`Redis is unreachable (${error.message}); requests that need storage answer 503 until it is back`);
  });
  client.on("ready", () => {
    if (!down) return;
    down = false;
    logInfo("Redis is reachable again");
  });
}

export function selectStorage(env: Record<string, string | undefined>): SelectedStorage {
  const { REDIS_URL, UPSTASH_REDIS_REST_URL, UPSTASH_REDIS_REST_TOKEN } = env;
  if (REDIS_URL) {
    const { loadedClient, ...store } = lazyStore("Redis", async () => {
      const { default: redis } = await import("unstorage/drivers/redis");
      const driver = redis({
        url: REDIS_URL,
        base: BASE,
        maxRetriesPerRequest: 1,
        commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      });
      const client = driver.getInstance!() as Parameters<typeof ioRedisAtomicStore>[0] & EventEmitter;
      reportConnectionChanges(client);
      return { driver, atomic: ioRedisAtomicStore(client, BASE), client };
    });
    return {
      name: "Redis",
      sharedAcrossInstances: true,
      client: { kind: "redis", loaded: loadedClient, keyPrefix: atomicKeyPrefix(BASE) },
      ...store,
    };
  }
  if (UPSTASH_REDIS_REST_URL && UPSTASH_REDIS_REST_TOKEN) {
    const { loadedClient, ...store } = lazyStore("Upstash Redis", async () => {
      const { default: upstash } = await import("unstorage/drivers/upstash");
      const driver = upstash({ url: UPSTASH_REDIS_REST_URL, token: UPSTASH_REDIS_REST_TOKEN, base: BASE });
      const client = driver.getInstance!() as never;
      return { driver, atomic: upstashAtomicStore(client, BASE), client };
    });
    return {
      name: "Upstash Redis",
      sharedAcrossInstances: true,
      client: { kind: "upstash", loaded: loadedClient, keyPrefix: atomicKeyPrefix(BASE) },
      ...store,
    };
  }
  if (env.NITRO_MCP_STORAGE_DIR) {
    // Development: one process (processes sharing the folder share its data and claims, not the message bus).
    const dir = env.NITRO_MCP_STORAGE_DIR;
    return { name: `files in ${dir}`, driver: fsLite({ base: dir }), atomic: filesAtomicStore(dir) };
  }
  return { name: "memory", atomic: memoryAtomicStore() };
}
