/**
 * The stores of a Cloudflare Workers build: Workers KV (the binding `MCP_KV`) for general storage,
 * and the Durable Object (the binding `$DurableObject`) for the atomic operations, which KV,
 * being eventually consistent, cannot do (and, with the message bus feature, one object per channel). Both
 * bindings are declared in the generated wrangler.json (nitro.config.ts).
 */
import cloudflareKV from "unstorage/drivers/cloudflare-kv-binding";
import type { SelectedStorage } from "../mcp/atomic-store";
import { durableAtomicStore, type DurableObjectNamespaceLike } from "./atomic-durable";

/** On Workers, Nitro's `process.env` also holds the bindings (as objects). */
export function selectStorage(env: Record<string, unknown>): SelectedStorage {
  const durable = env.$DurableObject as DurableObjectNamespaceLike | undefined;
  return {
    name: "Cloudflare KV (binding MCP_KV)",
    driver: cloudflareKV({ binding: "MCP_KV" }),
    sharedAcrossInstances: true,
    ...(durable
      ? { atomic: durableAtomicStore(durable), client: { kind: "durable", loaded: Promise.resolve(durable) } }
      : { missingAtomic: "Workers KV is eventually consistent: bind the Durable Object $DurableObject (see the generated wrangler.json)." }),
  };
}
