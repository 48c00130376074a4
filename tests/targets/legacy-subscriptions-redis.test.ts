/**
 * 2025-era resource updates across instances (legacy-subscriptions-instances.ts): two Node instances of the fixture build on
 * one Redis (its store keeps a session's subscriptions, its pub/sub carries them and the updates), and the same on the
 * Upstash driver (through the local stand-in of its REST API). Then what a session's list leaves in Redis, read with its client.
 */
import { Redis } from "ioredis";
import { describe, expect, it, onTestFinished } from "vitest";
import { initializeLegacy, postLegacy } from "../helpers/legacy";
import { hasFeature } from "../helpers/project.mjs";
import { startServer } from "../helpers/server.mjs";
import { describeInstances } from "./legacy-subscriptions-instances";
import { startInstancesCountingSubscribers, NEEDS_REDIS, startRedis } from "./redis.mjs";
import { startInstancesOnUpstash } from "./upstash.mjs";

// Asking 2025-era clients and their resource updates travel on the message bus (server/features/message-bus).
describe.runIf(hasFeature("message-bus"))("with the message bus", () => {
  describeInstances("two Node instances on Redis (pub/sub)", NEEDS_REDIS, () => startInstancesCountingSubscribers());

  describeInstances("two Node instances on Upstash (its REST API, polled)", NEEDS_REDIS, () =>
    startInstancesOnUpstash(),
  );

  describe("a session's list of subscriptions in Redis", NEEDS_REDIS, () => {
    it("lasts the session's day while it holds a URI, a second once emptied: cycling subscribe and unsubscribe leaves nothing", async () => {
      const redis = await startRedis();
      onTestFinished(() => redis.stop());
      const server = await startServer({ env: { REDIS_URL: redis.url } });
      onTestFinished(() => server.stop());
      const client = new Redis(redis.url);
      onTestFinished(() => client.disconnect());
      const session = (await initializeLegacy(server.url, {}))!;
      const change = (method: string) =>
        postLegacy(server.url, session, { id: 1, method, params: { uri: "fixture://about" } });
      const secondsLeft = async () => {
        const [key, ...others] = await client.keys("mcp:atomic:legacy-subscriptions:*");
        expect(others).toEqual([]);
        return key === undefined ? -2 : client.ttl(key);
      };

      expect((await change("resources/subscribe")).body!.result).toEqual({});
      expect(await secondsLeft()).toBeGreaterThan(3600);
      expect((await change("resources/unsubscribe")).body!.result).toEqual({});
      expect(await secondsLeft()).toBeLessThanOrEqual(1);
    });
  });
});
