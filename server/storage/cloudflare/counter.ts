/**
 * The Cloudflare store's rate counter: a Durable Object per key, which counts with its own table (`../gcra.ts` over its
 * atomic operations). Nothing interleaves with them: they are synchronous, and the awaits between them are microtasks.
 */
import type { RateCounter } from "../../mcp/kit";
import { countWith } from "../gcra";
import { tableOf } from "./atomic-table";
import type { DurableObjectNamespaceLike } from "./workers";

export default function durableCounter(client: unknown): RateCounter | undefined {
  // Without the Durable Object's binding nothing can count atomically.
  if (!client) return undefined;
  const namespace = client as DurableObjectNamespaceLike<{ rateLimitCount: RateCounter }>;
  return (key, limit, windowMs) => namespace.get(namespace.idFromName(key)).rateLimitCount(key, limit, windowMs);
}

/** The object's side, added to `$DurableObject` by the Worker entry. */
export const durableMethods = {
  rateLimitCount(this: Parameters<typeof tableOf>[0], key: string, limit: number, windowMs: number) {
    return countWith(tableOf(this), key, limit, windowMs);
  },
};
