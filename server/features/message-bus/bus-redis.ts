/**
 * The bus on Redis and on Upstash (see `bus-local.ts` for what every driver shares).
 *
 * - Redis: pub/sub. `PUBLISH` goes on the store's connection; hearing needs a connection of its own (a
 *   subscribed connection can run no other command), opened on the first subscription and shared by every
 *   channel this instance listens to.
 * - Upstash: its REST API has no pub/sub a serverless function can hold, so each channel is a Redis stream
 *   (`XADD`, its last BUS_KEPT messages, expiring BUS_TTL_SECONDS after the last one), and an instance with
 *   subscribers to a channel reads what is new every UPSTASH_POLL_MS: a message arrives within about that long,
 *   and each listened channel costs one command per poll per instance.
 */
import type { EventEmitter } from "node:events";
import type { MessageBus } from "../../mcp/bus";
import { busOver } from "./bus-local";

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

export function ioRedisBus(client: IoRedisClient | Promise<IoRedisClient>): MessageBus {
  const listeners = new Map<string, (message: string) => void>();
  let subscriber: IoRedisSubscriber | undefined;
  // Hearing needs a connection of its own, opened on the first subscription; its outages are the store client's, logged there.
  const connection = async () => {
    if (subscriber) return subscriber;
    subscriber = (await client).duplicate().on("error", () => {});
    subscriber.on("message", (channel: string, message: string) => listeners.get(channel)?.(message));
    return subscriber;
  };
  return busOver("Redis pub/sub", {
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
  });
}

/** How often an instance reads the channels it listens to, on Upstash. */
export const UPSTASH_POLL_MS = 500;
/** Messages a channel keeps for the instances polling it, and how long after its last message. */
const BUS_KEPT = 100;
const BUS_TTL_SECONDS = 60;

/** KEYS[1]: the stream; ARGV: message, kept, ttl. */
const APPEND = `redis.call("XADD", KEYS[1], "MAXLEN", "~", ARGV[2], "*", "m", ARGV[1]) redis.call("EXPIRE", KEYS[1], ARGV[3]) return 1`;
/** KEYS[1]: the stream. The id of its last message, or "0-0". */
const LAST_ID = `local last = redis.call("XREVRANGE", KEYS[1], "+", "-", "COUNT", 1) if last[1] then return last[1][1] end return "0-0"`;
/** KEYS[1]: the stream; ARGV: the last id read, count. A flat list: id, message, id, message… */
const READ_AFTER = `local out = {} for _, entry in ipairs(redis.call("XRANGE", KEYS[1], "(" .. ARGV[1], "+", "COUNT", ARGV[2])) do out[#out + 1] = entry[1] out[#out + 1] = entry[2][2] end return out`;

/** The `@upstash/redis` client's `eval`. */
interface UpstashEval {
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
}

/** Upstash decodes JSON-looking strings: take the text back. */
const asText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

export function upstashBus(loaded: UpstashEval | Promise<UpstashEval>): MessageBus {
  return busOver("Upstash Redis (polled)", {
    publish: async (channel, message) =>
      void (await (await loaded).eval(APPEND, [at(channel)], [message, String(BUS_KEPT), String(BUS_TTL_SECONDS)])),
    async listen(channel, deliver) {
      const client = await loaded;
      let last = asText(await client.eval(LAST_ID, [at(channel)], []));
      let timer: ReturnType<typeof setTimeout> | undefined;
      let stopped = false;
      const poll = async () => {
        try {
          const found = (await client.eval(READ_AFTER, [at(channel)], [last, String(BUS_KEPT)])) as unknown[];
          for (let i = 0; i + 1 < found.length && !stopped; i += 2) {
            last = asText(found[i]);
            deliver(asText(found[i + 1]));
          }
        } catch {
          // Upstash unreachable: try again on the next poll (the requests that need it answer 503 meanwhile).
        }
        if (!stopped) timer = setTimeout(poll, UPSTASH_POLL_MS);
      };
      timer = setTimeout(poll, UPSTASH_POLL_MS);
      return () => {
        stopped = true;
        clearTimeout(timer);
      };
    },
  });
}
