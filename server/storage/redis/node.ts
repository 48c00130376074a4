/** The Redis store (`REDIS_URL`): unstorage's redis driver (ioredis), shared by every instance; atomic operations in Lua. */
import type { EventEmitter } from "node:events";
import { defineStore, logInfo, logWarning } from "../../mcp/kit";
import { BASE, ioRedisAtomicStore, lazyStore } from "./commands";

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

export default defineStore({
  order: 10,
  select(env) {
    const url = env.REDIS_URL;
    if (typeof url !== "string" || !url) return undefined;
    const { loadedClient, ...store } = lazyStore("Redis", async () => {
      const { default: redis } = await import("unstorage/drivers/redis");
      const driver = redis({ url, base: BASE, maxRetriesPerRequest: 1, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
      const client = driver.getInstance!() as Parameters<typeof ioRedisAtomicStore>[0] & EventEmitter;
      reportConnectionChanges(client);
      return { driver, atomic: ioRedisAtomicStore(client), client };
    });
    return { name: "Redis", client: loadedClient, ...store };
  },
});
