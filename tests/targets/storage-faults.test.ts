/**
 * Faults in the store, in workerd: a Durable Object error is answered -32603 "storage unavailable" (HTTP 503), and the next
 * request is served.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STORAGE_UNAVAILABLE, askToIncrement, retryIncrement, uniqueKey } from "../helpers/flows";
import { post } from "../helpers/rpc";
import type { RunningServer } from "../helpers/server.mjs";
import { startWorker } from "../helpers/worker.mjs";

describe("a Durable Object error in workerd", () => {
  let worker: RunningServer;
  beforeAll(async () => {
    worker = await startWorker();
  }, 90_000);
  afterAll(() => worker?.stop());

  it("is answered 503 / -32603, and the next request is served", async () => {
    const failed = await post(worker.url, "tools/call", { name: "provoke_storage_fault", arguments: {} });
    expect(failed.status).toBe(503);
    expect(failed.body.error).toEqual(STORAGE_UNAVAILABLE);
    await expect.poll(() => worker.logs()).toMatch(/storage unavailable \(setIfAbsent\)/);
    const key = uniqueKey();
    expect(
      (await retryIncrement(worker.url, key, await askToIncrement(worker.url, key))).body.result.content[0].text,
    ).toBe(`Counter ${key} is now 1.`);
  });
});
