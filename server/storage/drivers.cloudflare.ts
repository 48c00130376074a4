/** The storage driver of a Cloudflare Workers build: the KV binding `MCP_KV` (declared in the generated wrangler.json). */
import type { Driver } from "unstorage";
import cloudflareKV from "unstorage/drivers/cloudflare-kv-binding";

export function selectStorageDriver(_env: Record<string, string | undefined>): { name: string; driver: Driver } | undefined {
  return { name: "Cloudflare KV (binding MCP_KV)", driver: cloudflareKV({ binding: "MCP_KV" }) };
}
