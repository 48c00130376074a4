/**
 * 2025-era resource updates across instances (legacy-subscriptions-instances.ts) in the Workers build in workerd (the Durable
 * Object's table and rendezvous).
 */
import { describe } from "vitest";
import { hasFeature } from "../helpers/project.mjs";
import { startWorker } from "../helpers/worker.mjs";
import { describeInstances } from "./legacy-subscriptions-instances";

// Asking 2025-era clients and their resource updates travel on the message bus (server/features/message-bus).
describe.runIf(hasFeature("message-bus"))("with the message bus", () => {
  describeInstances("the Workers build in workerd (a Durable Object per channel)", {}, async () => {
    const worker = await startWorker();
    return { a: worker, b: worker, stop: () => worker.stop() };
  });
});
