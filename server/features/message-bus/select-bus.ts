/**
 * The bus of the store chosen at start-up (`SelectedStorage` in `server/mcp/atomic-store.ts`): Redis pub/sub on Redis,
 * polled streams on Upstash, a Durable Object per channel on Workers, this process for memory and files. A store shared
 * across instances whose client this feature does not know (Workers KV without the Durable Object) gets none: a bus of one
 * process there would reach only the instance that published, so what needs a bus is not offered instead.
 */
import type { SelectedStorage } from "../../mcp/atomic-store";
import type { MessageBus } from "../../mcp/bus";
import { guarded } from "../../mcp/storage-guard";
import { durableBus } from "./bus-durable";
import { memoryBus } from "./bus-local";
import { ioRedisBus, upstashBus } from "./bus-redis";

export function busFor({ client, sharedAcrossInstances }: SelectedStorage): MessageBus | undefined {
  if (!client) return sharedAcrossInstances ? undefined : memoryBus();
  const loaded = client.loaded as Promise<never>;
  // A Worker's store is always the Durable Object (its preset is written in at build time): its bundle carries no Redis bus.
  const onWorkers = import.meta.preset === "cloudflare-durable";
  const bus =
    client.kind === "durable" || onWorkers
      ? durableBus(loaded)
      : client.kind === "redis"
        ? ioRedisBus(loaded)
        : upstashBus(loaded);
  // Publishing is bounded and traced like any storage operation; subscribing bounds its own wait (`bus-local.ts`), as a
  // subscription made after a timeout here would never be closed.
  return guarded(bus, new Set(["subscribe"]));
}
