/**
 * The storage drivers a Node or Vercel (Node runtime) build may use, chosen at start-up from
 * the environment: Redis, Upstash, or a folder (handy in development). None: in memory.
 */
import type { Driver } from "unstorage";
import fsLite from "unstorage/drivers/fs-lite";
import redis from "unstorage/drivers/redis";
import upstash from "unstorage/drivers/upstash";

export function selectStorageDriver(env: Record<string, string | undefined>): { name: string; driver: Driver } | undefined {
  if (env.REDIS_URL) return { name: "Redis", driver: redis({ url: env.REDIS_URL, base: "mcp" }) };
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) {
    return { name: "Upstash Redis", driver: upstash({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN, base: "mcp" }) };
  }
  if (env.NITRO_MCP_STORAGE_DIR) return { name: `files in ${env.NITRO_MCP_STORAGE_DIR}`, driver: fsLite({ base: env.NITRO_MCP_STORAGE_DIR }) };
  return undefined;
}
