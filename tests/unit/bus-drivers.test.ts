/**
 * The message bus (server/features/message-bus/bus.ts) over each store's transport (server/storage/<store>/bus.ts), each the same way: fan-out to every subscription of
 * a channel (on two instances of the bus, for a shared one), principals kept apart, `next` ending on its timeout or
 * on `close`, closed subscriptions leaving nothing behind, and the bounds. Memory in this process; each other store in a
 * `describeDriver` of its own, marked for its part, which says where that store runs.
 */
import { Redis } from "ioredis";
import upstash from "unstorage/drivers/upstash";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUS_LIMITS, subscriptionsOver } from "../../server/features/message-bus/bus";
import {
  EVERY_PRINCIPAL,
  MAX_BUS_MESSAGE_BYTES,
  encodeEnvelope,
  type BusTransport,
  type MessageBus,
} from "../../server/mcp/store";
import durableTransport, { BusRendezvous } from "../../server/storage/cloudflare/bus";
import memoryTransport from "../../server/storage/memory/bus";
import redisTransport from "../../server/storage/redis/bus";
import upstashTransport from "../../server/storage/upstash/bus";
import { startRedis, NEEDS_REDIS } from "../targets/redis.mjs";
import { startUpstashStandIn } from "../targets/upstash.mjs";

type CountedBus = MessageBus & { readonly subscriberCount: number };

/**
 * The message bus feature's subscriptions over a store's transport, publishing in the core's envelope: the bus its plugin
 * gives the core, without the caller's shares the core adds (server/mcp/store.ts).
 */
function busOn(transport: BusTransport | undefined): CountedBus {
  const subscriptions = subscriptionsOver("test", transport!);
  return Object.assign(subscriptions, {
    publish: async (channel: string, principal: string, data: unknown) =>
      transport!.publish(channel, encodeEnvelope(principal, data)),
  });
}
const memoryBus = () => busOn(memoryTransport());

/** Two buses on the same transport (two instances), and what to stop after. */
interface Drivers {
  a: CountedBus;
  b: CountedBus;
  /** How many instances the transport listens to a channel for (0 once every subscription closed), when it can tell. */
  listened?: (channel: string) => Promise<number>;
  stop(): Promise<void>;
}

const channel = () => `test-${crypto.randomUUID()}`;
/** Subscribers: the bus takes a caller for the core's fair shares, which only the core counts (server/mcp/store.ts). */
const ALICE = { principal: "alice", caller: "alice" };
const BOB = { principal: "bob", caller: "bob" };
const WAIT = 10_000;

function describeDriver(name: string, options: { skip?: boolean }, start: () => Promise<Drivers>) {
  describe.skipIf(options.skip ?? false)(`the ${name} bus`, () => {
    let drivers: Drivers;
    beforeAll(async () => {
      drivers = await start();
    }, 60_000);
    afterAll(() => drivers?.stop());

    it("delivers a message to every subscription of the channel, on every instance", async () => {
      const name = channel();
      const here = [await drivers.a.subscribe(name, ALICE), await drivers.a.subscribe(name, ALICE)];
      const there = await drivers.b.subscribe(name, ALICE);
      await drivers.b.publish(name, "alice", { n: 1 });
      for (const subscription of [...here, there]) expect(await subscription.next(WAIT)).toEqual({ n: 1 });
      for (const subscription of [...here, there]) subscription.close();
    });

    it("delivers a message for one principal to that principal only, and one for every principal to all", async () => {
      const name = channel();
      const alice = await drivers.a.subscribe(name, ALICE);
      const bob = await drivers.b.subscribe(name, BOB);
      await drivers.a.publish(name, "alice", "for alice");
      await drivers.a.publish(name, EVERY_PRINCIPAL, "for everyone");
      await drivers.b.publish(name, "bob", "for bob");
      expect([await alice.next(WAIT), await alice.next(WAIT)]).toEqual(["for alice", "for everyone"]);
      expect([await bob.next(WAIT), await bob.next(WAIT)]).toEqual(["for everyone", "for bob"]);
      alice.close();
      bob.close();
    });

    it("keeps channels apart", async () => {
      const [one, two] = [channel(), channel()];
      const subscription = await drivers.a.subscribe(one, ALICE);
      await drivers.b.publish(two, "alice", "elsewhere");
      await drivers.b.publish(one, "alice", "here");
      expect(await subscription.next(WAIT)).toBe("here");
      subscription.close();
    });

    it("ends a wait with nothing on its timeout, and at once when the subscription closes", async () => {
      const subscription = await drivers.a.subscribe(channel(), ALICE);
      expect(await subscription.next(10)).toBeUndefined();
      const pending = subscription.next(600_000);
      subscription.close();
      expect(await pending).toBeUndefined();
      expect(await subscription.next(600_000)).toBeUndefined();
      subscription.close(); // idempotent
    });

    it("forgets a closed subscription, and stops listening to a channel nobody here listens to", async () => {
      const before = drivers.a.subscriberCount;
      const name = channel();
      const subscriptions = await Promise.all(Array.from({ length: 5 }, () => drivers.a.subscribe(name, ALICE)));
      expect(drivers.a.subscriberCount).toBe(before + 5);
      if (drivers.listened) await expect.poll(() => drivers.listened!(name), { timeout: WAIT }).toBe(1);
      for (const subscription of subscriptions) subscription.close();
      expect(drivers.a.subscriberCount).toBe(before);
      if (drivers.listened) await expect.poll(() => drivers.listened!(name), { timeout: WAIT }).toBe(0);
    });

    it("refuses a message over the size limit", async () => {
      await expect(drivers.a.publish(channel(), "alice", "x".repeat(MAX_BUS_MESSAGE_BYTES))).rejects.toThrow(
        /limited to/,
      );
    });
  });
}

describeDriver("memory", {}, async () => {
  const bus = memoryBus();
  return { a: bus, b: bus, stop: async () => {} };
});

describe("the memory bus", () => {
  it("keeps a bounded queue for a subscription that does not read: what comes past it is dropped", async () => {
    const bus = memoryBus();
    const name = channel();
    const subscription = await bus.subscribe(name, ALICE);
    for (let n = 0; n < BUS_LIMITS.queuedPerSubscription + 50; n++) await bus.publish(name, "alice", n);
    for (let n = 0; n < BUS_LIMITS.queuedPerSubscription; n++) expect(await subscription.next(0)).toBe(n);
    await bus.publish(name, "alice", "after");
    expect(await subscription.next(0)).toBe("after");
    subscription.close();
  });

  it("refuses a subscription past the limit per instance, all channels together", async () => {
    const bus = memoryBus();
    const subscriptions = await Promise.all(
      Array.from({ length: BUS_LIMITS.subscriptionsPerInstance }, (_, n) => bus.subscribe(`channel-${n}`, ALICE)),
    );
    await expect(bus.subscribe(channel(), ALICE)).rejects.toMatchObject({ code: 429, httpStatus: 429 });
    for (const subscription of subscriptions) subscription.close();
    expect(bus.subscriberCount).toBe(0);
    (await bus.subscribe(channel(), ALICE)).close();
  });
});

// with:cloudflare
describeDriver("Durable Object (its rendezvous in this process)", {}, async () => {
  const objects = new Map<string, BusRendezvous>();
  const objectFor = (name: string) => objects.get(name) ?? objects.set(name, new BusRendezvous()).get(name)!;
  // As an RPC stub: every call is asynchronous.
  const namespace = {
    idFromName: (name: string) => name,
    get: (id: unknown) => ({
      busPublish: async (message: string) => objectFor(String(id)).publish(message),
      busListen: async () => objectFor(String(id)).listen(),
    }),
  };
  return {
    a: busOn(durableTransport(namespace)),
    b: busOn(durableTransport(namespace)),
    listened: async (name) => objects.get(`bus-${name}`)?.listening ?? 0,
    stop: async () => {},
  };
});

describe("the Durable Object bus", () => {
  it("closes the subscriptions of a channel whose object went away (a deploy), so that their streams end", async () => {
    const rendezvous = new BusRendezvous();
    const restart = new AbortController();
    const busListen = async () => {
      const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
      void rendezvous
        .listen()
        .pipeTo(writable, { signal: restart.signal })
        .catch(() => {});
      return readable;
    };
    const bus = busOn(
      durableTransport({
        idFromName: (name: string) => name,
        get: () => ({ busPublish: async (message: string) => rendezvous.publish(message), busListen }),
      }),
    );
    const subscription = await bus.subscribe(channel(), ALICE);
    const pending = subscription.next(600_000);
    restart.abort();
    expect(await pending).toBeUndefined();
    expect(bus.subscriberCount).toBe(0);
  });
});
// end with:cloudflare

// with:redis
describeDriver("Redis", NEEDS_REDIS, async () => {
  const redis = await startRedis();
  const clients = [new Redis(redis.url), new Redis(redis.url)];
  const subscribers: Redis[] = [];
  // The clients as the store hands them over, keeping the subscriber connections the buses open, to close them at the end.
  const tracked = (client: Redis) => ({
    publish: (name: string, message: string) => client.publish(name, message),
    duplicate: () => subscribers[subscribers.push(client.duplicate()) - 1]!,
  });
  const [a, b] = clients.map((client) => busOn(redisTransport(tracked(client)))) as [CountedBus, CountedBus];
  return {
    a,
    b,
    listened: async (name) => Number(((await clients[0]!.pubsub("NUMSUB", `mcp:bus:${name}`)) as [string, number])[1]),
    stop: async () => {
      for (const client of [...clients, ...subscribers]) client.disconnect();
      await redis.stop();
    },
  };
});

describeDriver("Upstash (local stand-in of its REST API)", NEEDS_REDIS, async () => {
  const redis = await startRedis();
  const standIn = await startUpstashStandIn(redis.url);
  const bus = () => busOn(upstashTransport(upstash({ url: standIn.url, token: standIn.token }).getInstance!()));
  return {
    a: bus(),
    b: bus(),
    stop: async () => {
      await standIn.stop();
      await redis.stop();
    },
  };
});
// end with:redis
