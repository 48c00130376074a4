/**
 * The stores a Node or Vercel (Node runtime) build may use, chosen at start-up from the
 * environment: Redis, Upstash, or a folder (handy in development). None: in memory, one process.
 * Each comes with its atomic operations (see `atomic.ts`).
 */
import type { EventEmitter } from "node:events";
import fsLite from "unstorage/drivers/fs-lite";
import redis from "unstorage/drivers/redis";
import upstash from "unstorage/drivers/upstash";
import { logInfo, logWarning } from "../mcp/log";
import type { SelectedStorage } from "./atomic";
import { filesAtomicStore } from "./atomic-files";
import { memoryAtomicStore } from "./atomic-memory";
import { ioRedisAtomicStore, upstashAtomicStore } from "./atomic-redis";

const BASE = "mcp";
/** A Redis that does not answer fails the request in this time, instead of holding it. */
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
  if (env.REDIS_URL) {
    // Every command is bounded: while Redis is down a request fails within the timeout (503, "storage
    // unavailable") instead of waiting for it, and the client keeps reconnecting in the background.
    const driver = redis({ url: env.REDIS_URL, base: BASE, maxRetriesPerRequest: 1, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
    const client = driver.getInstance!() as Parameters<typeof ioRedisAtomicStore>[0] & EventEmitter;
    reportConnectionChanges(client);
    return { name: "Redis", driver, atomic: ioRedisAtomicStore(client, BASE) };
  }
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) {
    const driver = upstash({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN, base: BASE });
    return { name: "Upstash Redis", driver, atomic: upstashAtomicStore(driver.getInstance!() as never, BASE) };
  }
  if (env.NITRO_MCP_STORAGE_DIR) {
    return { name: `files in ${env.NITRO_MCP_STORAGE_DIR}`, driver: fsLite({ base: env.NITRO_MCP_STORAGE_DIR }), atomic: filesAtomicStore(env.NITRO_MCP_STORAGE_DIR) };
  }
  return { name: "memory", atomic: memoryAtomicStore() };
}
