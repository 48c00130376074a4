/**
 * Picks the storage drivers a build may contain, from the build's preset, so an edge bundle
 * never carries a driver it cannot run (ioredis on Workers, say). The choice among them is
 * made at run time from the environment, in `server/plugins/storage.ts`.
 *
 * - Cloudflare Workers: the KV binding `MCP_KV`.
 * - Vercel Edge: Upstash (REST, fetch-based).
 * - Node and Vercel (Node runtime): Redis (`REDIS_URL`), Upstash (`UPSTASH_REDIS_REST_URL` and
 *   `UPSTASH_REDIS_REST_TOKEN`), or a folder (`NITRO_MCP_STORAGE_DIR`, handy in development).
 * With none configured, storage stays in memory: one process only.
 */
import type { Nitro } from "nitropack";

const UPSTASH = `
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) {
    return { name: "Upstash Redis", shared: true, driver: upstash({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN, base: "mcp" }) };
  }`;

const DRIVERS = {
  cloudflare: `
import cloudflareKV from "unstorage/drivers/cloudflare-kv-binding";
export function selectStorageDriver() {
  return { name: "Cloudflare KV (binding MCP_KV)", shared: true, driver: cloudflareKV({ binding: "MCP_KV" }) };
}`,
  edge: `
import upstash from "unstorage/drivers/upstash";
export function selectStorageDriver(env) {${UPSTASH}
  return undefined;
}`,
  node: `
import redis from "unstorage/drivers/redis";
import upstash from "unstorage/drivers/upstash";
import fsLite from "unstorage/drivers/fs-lite";
export function selectStorageDriver(env) {
  if (env.REDIS_URL) return { name: "Redis", shared: true, driver: redis({ url: env.REDIS_URL, base: "mcp" }) };${UPSTASH}
  if (env.NITRO_MCP_STORAGE_DIR) return { name: "files in " + env.NITRO_MCP_STORAGE_DIR, shared: false, driver: fsLite({ base: env.NITRO_MCP_STORAGE_DIR }) };
  return undefined;
}`,
} as const;

export function storageDriversFor(preset: string): keyof typeof DRIVERS {
  if (preset.startsWith("cloudflare")) return "cloudflare";
  if (preset === "vercel-edge") return "edge";
  return "node";
}

export function mcpStorageModule() {
  return (nitro: Nitro) => {
    nitro.options.virtual["#mcp-storage-driver"] = () => DRIVERS[storageDriversFor(nitro.options.preset)];
  };
}
