/** Bounded tasks (bounded-tasks.ts) on a real Redis: two instances, each record read with the Redis client. */
import { Redis } from "ioredis";
import { MAX_ACTIVE, describeBoundedTasks, type StoredTasks } from "./bounded-tasks";
import { startInstancesOnRedis } from "./redis.mjs";

describeBoundedTasks("Redis, two instances", async () => {
  const instances = await startInstancesOnRedis(MAX_ACTIVE);
  const client = new Redis(instances.redis.url);
  const stored: StoredTasks = {
    async records() {
      const keys = await client.keys("mcp:atomic:task:*");
      const values = keys.length ? await client.mget(keys) : [];
      return new Map(keys.map((key, index) => [key.slice("mcp:atomic:task:".length), values[index]!]));
    },
  };
  return {
    a: instances.a,
    b: instances.b,
    stored,
    stop: async () => {
      client.disconnect();
      await instances.stop();
    },
  };
});
