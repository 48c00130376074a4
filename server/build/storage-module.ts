/**
 * Picks the storage drivers a build may contain, from the build's preset, so an edge bundle
 * never carries a driver it cannot run (ioredis on Workers, say). The choice among them is
 * made at run time from the environment, in `server/plugins/storage.ts`.
 *
 * - Cloudflare Workers: the KV binding `MCP_KV`.
 * - Node and Vercel (Node runtime): Redis (`REDIS_URL`), Upstash (`UPSTASH_REDIS_REST_URL` and
 *   `UPSTASH_REDIS_REST_TOKEN`), or a folder (`NITRO_MCP_STORAGE_DIR`, handy in development).
 * With none configured, storage stays in memory: one process only.
 */
import type { Nitro } from "nitropack";

const CLOUDFLARE = `
import cloudflareKV from "unstorage/drivers/cloudflare-kv-binding";
export function selectStorageDriver() {
  return { name: "Cloudflare KV (binding MCP_KV)", driver: cloudflareKV({ binding: "MCP_KV" }) };
}`;

const NODE = `
import redis from "unstorage/drivers/redis";
import upstash from "unstorage/drivers/upstash";
import fsLite from "unstorage/drivers/fs-lite";
export function selectStorageDriver(env) {
  if (env.REDIS_URL) return { name: "Redis", driver: redis({ url: env.REDIS_URL, base: "mcp" }) };
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) {
    return { name: "Upstash Redis", driver: upstash({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN, base: "mcp" }) };
  }
  if (env.NITRO_MCP_STORAGE_DIR) return { name: "files in " + env.NITRO_MCP_STORAGE_DIR, driver: fsLite({ base: env.NITRO_MCP_STORAGE_DIR }) };
  return undefined;
}`;

export function mcpStorageModule() {
  return (nitro: Nitro) => {
    nitro.options.virtual["#mcp-storage-driver"] = () => (nitro.options.preset.startsWith("cloudflare") ? CLOUDFLARE : NODE);
  };
}
