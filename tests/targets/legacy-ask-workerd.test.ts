/**
 * Asking a 2025-era client across instances (legacy-ask-instances.ts) in the Workers build in workerd (one wrangler dev:
 * its isolate publishes to the channel's Durable Object and hears back from it).
 */
import { describe } from "vitest";
import { hasFeature } from "../helpers/project.mjs";
import { startWorker } from "../helpers/worker.mjs";
import { describeInstances } from "./legacy-ask-instances";

// Asking 2025-era clients and their resource updates travel on the message bus (server/features/message-bus).
describe.runIf(hasFeature("message-bus"))("with the message bus", () => {
  describeInstances("the Workers build in workerd (a Durable Object per channel)", {}, async () => {
    const worker = await startWorker();
    return { a: worker, b: worker, stop: () => worker.stop() };
  });
});
