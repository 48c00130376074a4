/**
 * The message bus each store gets (`busFor`, which the message bus feature's plugin calls with the store `selectStorage`
 * chose): one process for memory and files, the store's own for Redis, Upstash and the Durable Object, and none for a
 * store shared across instances that has no bus (Workers KV without the Durable Object), where a bus of one process
 * would reach only the instance that published.
 */
import { describe, expect, it } from "vitest";
import { busFor } from "../../server/features/message-bus/select-bus";
import { selectStorage as selectCloudflareStorage } from "../../server/storage/drivers.cloudflare";
import { selectStorage as selectNodeStorage } from "../../server/storage/drivers.node";

describe("the bus of each store", () => {
  it("is none for Workers KV without the Durable Object: nothing that needs one is offered", () => {
    expect(busFor(selectCloudflareStorage({}))).toBeUndefined();
  });

  it("is this process's for memory and files, the Durable Object's on Workers (Redis's and Upstash's: the target tests, on real stores)", () => {
    for (const env of [{}, { NITRO_MCP_STORAGE_DIR: "/nonexistent-bus-test" }])
      expect(busFor(selectNodeStorage(env))?.name).toBe("memory (this process)");
    const durable = { idFromName: (name: string) => name, get: () => ({}) };
    expect(busFor(selectCloudflareStorage({ $DurableObject: durable }))?.name).toMatch(/^Durable Object/);
  });
});
