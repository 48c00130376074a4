/**
 * A message bus in one process, for the tests until the store's own buses land (server/mcp/bus.ts is the interface):
 * what the fixture builds install when the store brought none (`tests/fixtures/plugins/test-bus.ts`), and what
 * in-process tests set with `setMessageBus`. Same contract: delivery to the subscribers of the moment, for their principal only.
 */
import { setMessageBus, useMessageBus, type BusSubscription, type MessageBus } from "../../server/mcp/bus";

interface Subscriber {
  readonly principal: string;
  readonly queue: unknown[];
  wake?: () => void;
}

export function createMemoryBus(): MessageBus {
  const channels = new Map<string, Set<Subscriber>>();
  return {
    name: "memory (tests)",
    sharedAcrossInstances: false,
    async publish(channel, principal, data) {
      const text = JSON.stringify(data);
      for (const subscriber of channels.get(channel) ?? []) {
        if (subscriber.principal !== principal) continue;
        subscriber.queue.push(JSON.parse(text));
        subscriber.wake?.();
      }
    },
    async subscribe(channel, principal): Promise<BusSubscription> {
      const subscriber: Subscriber = { principal, queue: [] };
      const set = channels.get(channel) ?? new Set();
      channels.set(channel, set.add(subscriber));
      let closed = false;
      return {
        next(timeoutMs) {
          if (subscriber.queue.length > 0) return Promise.resolve(subscriber.queue.shift());
          if (closed) return Promise.resolve(undefined);
          return new Promise((resolve) => {
            const timer = setTimeout(() => finish(), timeoutMs);
            const finish = () => {
              clearTimeout(timer);
              subscriber.wake = undefined;
              resolve(subscriber.queue.shift());
            };
            subscriber.wake = finish;
          });
        },
        close() {
          if (closed) return;
          closed = true;
          set.delete(subscriber);
          if (set.size === 0) channels.delete(channel);
          subscriber.wake?.();
        },
      };
    },
  };
}

/** Installs a memory bus unless the store brought one. */
export function useMemoryBusUnlessConfigured(): void {
  if (!useMessageBus()) setMessageBus(createMemoryBus());
}
