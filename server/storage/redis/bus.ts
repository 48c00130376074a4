/**
 * The Redis store's message transport: pub/sub. `PUBLISH` goes on the store's connection; hearing needs a connection of
 * its own (a subscribed connection can run no other command), opened on the first subscription and shared by every
 * channel this instance listens to.
 */
import type { EventEmitter } from "node:events";
import type { BusTransport } from "../../mcp/kit";

/** Where the channels are, beside the store's own keys (`mcp:…`). */
const at = (channel: string) => `mcp:bus:${channel}`;

/** The subset of ioredis the bus uses. */
interface IoRedisClient {
  publish(channel: string, message: string): Promise<unknown>;
  duplicate(): IoRedisSubscriber;
}
interface IoRedisSubscriber extends EventEmitter {
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
}

export default function redisBus(loaded: unknown): BusTransport {
  const client = loaded as IoRedisClient | Promise<IoRedisClient>;
  const listeners = new Map<string, (message: string) => void>();
  let subscriber: IoRedisSubscriber | undefined;
  // Hearing needs a connection of its own, opened on the first subscription; its outages are the store client's, logged there.
  const connection = async () => {
    if (subscriber) return subscriber;
    subscriber = (await client).duplicate().on("error", () => {});
    subscriber.on("message", (channel: string, message: string) => listeners.get(channel)?.(message));
    return subscriber;
  };
  return {
    publish: async (channel, message) => void (await (await client).publish(at(channel), message)),
    async listen(channel, deliver) {
      listeners.set(at(channel), deliver);
      await (await connection()).subscribe(at(channel)).catch((error: unknown) => {
        if (listeners.get(at(channel)) === deliver) listeners.delete(at(channel));
        throw error;
      });
      return () => {
        if (listeners.get(at(channel)) !== deliver) return; // listened again since
        listeners.delete(at(channel));
        void connection()
          .then((connected) => connected.unsubscribe(at(channel)))
          .catch(() => {});
      };
    },
  };
}
