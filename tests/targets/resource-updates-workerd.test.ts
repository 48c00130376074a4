/**
 * Resource updates across instances (resource-updates.ts) in the Workers build in workerd, whose bus is the Durable Object
 * (one wrangler dev: its isolate publishes to the object and hears back from it).
 */
import { startWorker } from "../helpers/worker.mjs";
import { describeInstances } from "./resource-updates";

describeInstances("the Workers build in workerd (a Durable Object per channel)", {}, async () => {
  const worker = await startWorker();
  return { a: worker, b: worker, stop: () => worker.stop() };
});
