/**
 * The Upstash store's message transport. Its REST API has no pub/sub a serverless function can hold, so each channel is a
 * Redis stream (`XADD`, its last BUS_KEPT messages, expiring BUS_TTL_SECONDS after the last one), and an instance with
 * subscribers to a channel reads what is new every UPSTASH_POLL_MS: a message arrives within about that long, and each
 * listened channel costs one command per poll per instance.
 */
import type { BusTransport } from "../../mcp/kit";

/** Where the channels are, beside the store's own keys (`mcp:…`). */
const at = (channel: string) => `mcp:bus:${channel}`;

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

export default function upstashBus(client: unknown): BusTransport {
  const loaded = client as UpstashEval | Promise<UpstashEval>;
  return {
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
  };
}
