/**
 * Asking a 2025-era client across instances (legacy-ask-instances.ts): two Node instances sharing one Redis (pub/sub), and
 * the same on the Upstash driver (through the local stand-in of its REST API; its bus polls).
 */
import { describe } from "vitest";
import { hasFeature } from "../helpers/project.mjs";
import { describeInstances } from "./legacy-ask-instances";
import { startInstancesOnRedis, NEEDS_REDIS } from "./redis.mjs";
import { startInstancesOnUpstash } from "./upstash.mjs";

// Asking 2025-era clients and their resource updates travel on the message bus (server/features/message-bus).
describe.runIf(hasFeature("message-bus"))("with the message bus", () => {
  describeInstances("two Node instances on Redis (pub/sub)", NEEDS_REDIS, () => startInstancesOnRedis());

  describeInstances("two Node instances on Upstash (its REST API, polled)", NEEDS_REDIS, () =>
    startInstancesOnUpstash(),
  );
});
