/**
 * Resource updates across instances (resource-updates.ts) on a real Redis: two Node processes of the fixture build (pub/sub),
 * the same on the Upstash driver (through the local stand-in of its REST API on that Redis), and two Vercel function outputs on it.
 */
import { startInstancesCountingSubscribers, NEEDS_REDIS } from "./redis.mjs";
import { describeInstances } from "./resource-updates";
import { startInstancesOnUpstash } from "./upstash.mjs";

describeInstances("two Node instances on Redis (pub/sub)", NEEDS_REDIS, () => startInstancesCountingSubscribers());

describeInstances("two Node instances on Upstash (its REST API, polled)", NEEDS_REDIS, () => startInstancesOnUpstash());

describeInstances("two Vercel function outputs on Upstash", NEEDS_REDIS, () => startInstancesOnUpstash("vercel"));
