/**
 * The start-up refusal of a store shared across instances whose message bus is not (`refuseUnsharedBus`, which server/plugins/storage.ts calls):
 * the stores as `selectStorage` chooses them, and a store given an unshared bus.
 */
import { describe, expect, it } from "vitest";
import { refuseUnsharedBus } from "../../server/mcp/bus";
import { memoryBus } from "../../server/storage/bus-local";
import { selectStorage as selectCloudflareStorage } from "../../server/storage/drivers.cloudflare";
import { selectStorage as selectNodeStorage } from "../../server/storage/drivers.node";

describe("a shared store needs a shared bus", () => {
  it("accepts Workers KV without the Durable Object: no bus, so nothing that needs one is offered", () => {
    const kvAlone = selectCloudflareStorage({});
    expect(kvAlone.bus).toBeUndefined();
    expect(() => refuseUnsharedBus(kvAlone)).not.toThrow();
  });

  it("refuses a shared store given a bus of one process", () => {
    expect(() => refuseUnsharedBus({ name: "Some Redis", sharedAcrossInstances: true, bus: memoryBus() })).toThrow(/Some Redis is shared across instances but its message bus \(memory \(this process\)\) is not/);
  });

  it("accepts every store as chosen on Node (one process for memory and files) and Workers KV with the Durable Object", () => {
    for (const env of [{}, { NITRO_MCP_STORAGE_DIR: "/nonexistent-bus-test" }]) expect(() => refuseUnsharedBus(selectNodeStorage(env))).not.toThrow();
    const durable = { idFromName: (name: string) => name, get: () => ({}) };
    const workers = selectCloudflareStorage({ $DurableObject: durable });
    expect(workers.bus?.sharedAcrossInstances).toBe(true);
    expect(() => refuseUnsharedBus(workers)).not.toThrow();
  });
});
