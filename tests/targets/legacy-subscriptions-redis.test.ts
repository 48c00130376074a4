/**
 * 2025-era resource updates across instances (legacy-subscriptions-instances.ts): two Node instances of the fixture build on
 * one Redis (its store keeps a session's subscriptions, its pub/sub carries them and the updates), and the same on the
 * Upstash driver (through the local stand-in of its REST API).
 */
import { describe } from "vitest";
import { hasFeature } from "../helpers/project.mjs";
import { describeInstances } from "./legacy-subscriptions-instances";
import { startInstancesCountingSubscribers, NEEDS_REDIS } from "./redis.mjs";
import { startInstancesOnUpstash } from "./upstash.mjs";

// Asking 2025-era clients and their resource updates travel on the message bus (server/features/message-bus).
describe.runIf(hasFeature("message-bus"))("with the message bus", () => {
  describeInstances("two Node instances on Redis (pub/sub)", NEEDS_REDIS, () => startInstancesCountingSubscribers());

  describeInstances("two Node instances on Upstash (its REST API, polled)", NEEDS_REDIS, () =>
    startInstancesOnUpstash(),
  );
});
