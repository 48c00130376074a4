/**
 * The Upstash store (`UPSTASH_REDIS_REST_URL` and `UPSTASH_REDIS_REST_TOKEN`): Redis over its REST API, shared by every
 * instance, for platforms without long-lived connections; atomic operations in Lua, as on Redis.
 */
import { defineStore } from "../../mcp/kit";
import { BASE, lazyStore, upstashAtomicStore } from "../redis/commands";

export default defineStore({
  order: 20,
  select(env) {
    const { UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: token } = env;
    if (typeof url !== "string" || !url || typeof token !== "string" || !token) return undefined;
    const { loadedClient, ...store } = lazyStore("Upstash Redis", async () => {
      const { default: upstash } = await import("unstorage/drivers/upstash");
      const driver = upstash({ url, token, base: BASE });
      const client = driver.getInstance!() as never;
      return { driver, atomic: upstashAtomicStore(client), client };
    });
    return { name: "Upstash Redis", client: loadedClient, ...store };
  },
});
