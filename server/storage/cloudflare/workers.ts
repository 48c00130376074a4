/**
 * The Cloudflare store, on Workers, shared by every instance: KV (the binding `MCP_KV`) for general storage, and, because KV
 * is eventually consistent, the atomic operations in the Durable Object of this build (`$DurableObject`), keys spread over
 * SHARDS objects by hash, each a SQLite table (`atomic-table.ts`). Nitro's `process.env` on Workers also holds the bindings
 * (as objects).
 */
import cloudflareKV from "unstorage/drivers/cloudflare-kv-binding";
import { type AtomicStore, defineStore } from "../../mcp/kit";

const SHARDS = 16;

/** The RPC methods of the `$DurableObject` class. */
interface AtomicObject {
  atomicGet(key: string): Promise<string | null>;
  atomicSetIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  atomicCompareAndSet(key: string, expected: string, next: string, ttlSeconds: number): Promise<boolean>;
  atomicDelete(key: string): Promise<void>;
}

/** The `$DurableObject` binding: the object of a name, as a stub of its RPC methods (the bus's and counter's too). */
export interface DurableObjectNamespaceLike<Stub = AtomicObject> {
  idFromName(name: string): unknown;
  get(id: unknown): Stub;
}

/** FNV-1a: a cheap, stable spread of keys over the shards. */
function shardOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % SHARDS;
}

export function durableAtomicStore(namespace: DurableObjectNamespaceLike): AtomicStore {
  const objectFor = (key: string) => namespace.get(namespace.idFromName(`atomic-${shardOf(key)}`));
  return {
    name: "Durable Object ($DurableObject)",
    get: (key) => objectFor(key).atomicGet(key),
    setIfAbsent: (key, value, ttlSeconds) => objectFor(key).atomicSetIfAbsent(key, value, ttlSeconds),
    compareAndSet: (key, expected, next, ttlSeconds) =>
      objectFor(key).atomicCompareAndSet(key, expected, next, ttlSeconds),
    delete: (key) => objectFor(key).atomicDelete(key),
  };
}

export default defineStore({
  order: 10,
  select(env) {
    const durable = env.$DurableObject as DurableObjectNamespaceLike | undefined;
    return {
      name: "Cloudflare KV (binding MCP_KV)",
      driver: cloudflareKV({ binding: "MCP_KV" }),
      ...(durable
        ? { atomic: durableAtomicStore(durable), client: durable }
        : {
            missingAtomic:
              "Workers KV is eventually consistent: bind the Durable Object $DurableObject (see the generated wrangler.json).",
          }),
    };
  },
});

export { durableMethods } from "./atomic-table";
