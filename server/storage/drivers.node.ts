/**
 * The stores a Node or Vercel (Node runtime) build may use, chosen at start-up from the
 * environment: Redis, Upstash, or a folder (handy in development). None: in memory, one process.
 * Each comes with its atomic operations (see `server/mcp/atomic-store.ts`) and its message bus (`server/mcp/bus.ts`):
 * Redis pub/sub, Upstash polled, and for a folder or memory one in this process. The Redis clients are imported only when
 * configured, without holding up the start (see `lazy.ts`).
 */
import type { EventEmitter } from "node:events";
import fsLite from "unstorage/drivers/fs-lite";
import { logInfo, logWarning } from "../mcp/log";
import type { SelectedStorage } from "../mcp/atomic-store";
import { filesAtomicStore } from "./atomic-files";
import { memoryAtomicStore } from "./atomic-memory";
import { ioRedisAtomicStore, upstashAtomicStore } from "./atomic-redis";
import { memoryBus } from "./bus-local";
import { ioRedisBus, upstashBus } from "./bus-redis";
import { lazyStore } from "./lazy";

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
  const { REDIS_URL, UPSTASH_REDIS_REST_URL, UPSTASH_REDIS_REST_TOKEN } = env;
  if (REDIS_URL) {
    const store = lazyStore("Redis", "Redis pub/sub", async () => {
      const { default: redis } = await import("unstorage/drivers/redis");
      // Every command is bounded: while Redis is down a request fails within the timeout (503, "storage
      // unavailable") instead of waiting for it, and the client keeps reconnecting in the background.
      const driver = redis({ url: REDIS_URL, base: BASE, maxRetriesPerRequest: 1, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
      const client = driver.getInstance!() as Parameters<typeof ioRedisAtomicStore>[0] & Parameters<typeof ioRedisBus>[0] & EventEmitter & { duplicate(): never };
      reportConnectionChanges(client);
      // The bus hears on a connection of its own, opened on the first subscription; its outages are the client's, reported once above.
      const subscriber = () => (client.duplicate() as EventEmitter).on("error", () => {}) as never;
      return { driver, atomic: ioRedisAtomicStore(client, BASE), bus: ioRedisBus(client, subscriber, BASE) };
    });
    return { name: "Redis", sharedAcrossInstances: true, ...store };
  }
  if (UPSTASH_REDIS_REST_URL && UPSTASH_REDIS_REST_TOKEN) {
    const store = lazyStore("Upstash Redis", "Upstash Redis (polled)", async () => {
      const { default: upstash } = await import("unstorage/drivers/upstash");
      const driver = upstash({ url: UPSTASH_REDIS_REST_URL, token: UPSTASH_REDIS_REST_TOKEN, base: BASE });
      const client = driver.getInstance!() as never;
      return { driver, atomic: upstashAtomicStore(client, BASE), bus: upstashBus(client, BASE) };
    });
    return { name: "Upstash Redis", sharedAcrossInstances: true, ...store };
  }
  if (env.NITRO_MCP_STORAGE_DIR) {
    // Development: one process, so the bus stays in it (processes sharing the folder do not hear each other).
    const dir = env.NITRO_MCP_STORAGE_DIR;
    return { name: `files in ${dir}`, driver: fsLite({ base: dir }), atomic: filesAtomicStore(dir), bus: memoryBus() };
  }
  return { name: "memory", atomic: memoryAtomicStore(), bus: memoryBus() };
}
