/** A Workers build's stores: KV (`MCP_KV`), and the Durable Object (`$DurableObject`) for the atomics KV cannot do. */
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
      : {
          missingAtomic:
            "Workers KV is eventually consistent: bind the Durable Object $DurableObject (see the generated wrangler.json).",
        }),
  };
}
