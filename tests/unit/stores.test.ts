/**
 * Each folder of server/storage is a store (server/storage/README.md): the build's `#mcp-stores` lists those with a file
 * for its platform, each with the ports its folder supplies, and the storage plugin opens the first, by order, whose
 * `select` answers the environment. Adding a store is adding a folder: nothing else names one.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { storesModule } from "../../server/build/stores-module";
import { guarded, StorageUnavailableError, type StoreDefinition } from "../../server/mcp/kit";
import { memoryAtomicStore } from "../../server/storage/memory/node";
import { hasFeature } from "../helpers/project.mjs";

type Listed = { definition: StoreDefinition; ports: Record<string, (client: unknown) => unknown> };

/** `#mcp-stores` as the build generates it for `platform`, loaded. */
async function storesOf(platform: "node" | "workers"): Promise<Listed[]> {
  const dir = mkdtempSync(join(tmpdir(), "stores-"));
  try {
    const file = join(dir, `stores-${platform}.ts`);
    writeFileSync(file, storesModule(process.cwd(), platform));
    return ((await import(file)) as { stores: Listed[] }).stores;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The store the storage plugin would open for `env`: the first by order whose `select` answers. */
const opened = (stores: Listed[], env: Record<string, unknown>) =>
  [...stores]
    .sort((a, b) => a.definition.order - b.definition.order)
    .map((store) => ({ store, opened: store.definition.select(env) }))
    .find(({ opened }) => opened !== undefined)!;

const PORTS = [...(hasFeature("message-bus") ? ["bus"] : []), ...(hasFeature("rate-limit") ? ["counter"] : [])];

/** The stores the template ships for Node: an environment that selects each, and the name it opens under. */
const NODE_STORES: [Record<string, string>, RegExp][] = [[{}, /^memory$/]];
// with:files
NODE_STORES.push([{ NITRO_MCP_STORAGE_DIR: "/tmp/some-dir" }, /^files in \/tmp\/some-dir$/]);
// end with:files
// with:redis
NODE_STORES.push(
  [{ UPSTASH_REDIS_REST_URL: "https://upstash.invalid", UPSTASH_REDIS_REST_TOKEN: "t" }, /^Upstash Redis$/],
  [{ REDIS_URL: "redis://127.0.0.1:1", UPSTASH_REDIS_REST_URL: "https://upstash.invalid" }, /^Redis$/],
);
// end with:redis

describe("the stores of a Node build", () => {
  it(`are the ${NODE_STORES.length} folders with a node.ts, each supplying the ports its features use`, async () => {
    const stores = await storesOf("node");
    expect(stores).toHaveLength(NODE_STORES.length);
    for (const { ports } of stores) expect(Object.keys(ports).sort()).toEqual(PORTS);
  });

  it.each(NODE_STORES)("with %j opens %s, with atomic operations", async (env, name) => {
    const { opened: store } = opened(await storesOf("node"), env);
    // A client a store opens in the background (Redis's, here to a port nothing listens on) would otherwise go on
    // reconnecting in this worker, running the store's code during the other test files that share it: closed even
    // when an assertion below fails.
    onTestFinished(async () => await store?.driver?.dispose?.());
    expect(store!.name).toMatch(name);
    expect(store!.atomic).toBeDefined();
  });
});

describe("the memory store", () => {
  /** The heap after a full collection, so that what is measured is what the store still holds. */
  function heapAfterCollection(): number {
    setFlagsFromString("--expose-gc");
    (runInNewContext("gc") as () => void)();
    return process.memoryUsage().heapUsed;
  }
  // A fresh string each time, as a request builds its key: what a list of its rewrites would keep.
  const key = (n: number) => `legacy-subscriptions:${n.toString(16).padStart(40, "0")}`;

  /** `rewrites` compare-and-sets of each of `keys` keys, `perSecond` of them before the clock moves a second. */
  async function rewrite(keys: number, rewrites: number, perSecond: number): Promise<number> {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000_000 });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const store = memoryAtomicStore();
    const values = Array.from({ length: keys }, () => "[]");
    for (let k = 0; k < keys; k++) await store.setIfAbsent(key(k), values[k]!, 86_400);
    const before = heapAfterCollection();
    for (let i = 0; i < rewrites; i++) {
      if (i % perSecond === 0) vi.advanceTimersByTime(1000);
      const k = i % keys;
      const next = values[k] === "[]" ? '["note://7"]' : "[]";
      expect(await store.compareAndSet(key(k), values[k]!, next, 86_400)).toBe(true);
      values[k] = next;
    }
    const grown = heapAfterCollection() - before;
    for (let k = 0; k < keys; k++) expect(await store.get(key(k))).toBe(values[k]);
    return grown;
  }

  it("lists a key rewritten again and again once: a caller rewriting its own key cannot grow the process", async () => {
    expect(await rewrite(1, 200_000, Infinity)).toBeLessThan(2 * 1024 * 1024);
  });

  it("lists a key rewritten every second with the same time to live under its latest second alone", async () => {
    // 100 keys rewritten over 2,000 seconds: a list per second that kept them would hold 200,000 entries.
    expect(await rewrite(100, 200_000, 100)).toBeLessThan(2 * 1024 * 1024);
  });

  it("lets go of keys once their expiry passes, those rewritten with a later or an earlier one too", () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000_000 });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const store = memoryAtomicStore();
    const keys = 60_000;
    const before = heapAfterCollection();
    for (let k = 0; k < keys; k++) store.setIfAbsent(key(k), "a", 10);
    // A third rewritten to live longer, a third shorter; each is still what was last written until its own expiry.
    for (let k = 0; k < keys; k += 3) store.compareAndSet(key(k), "a", "b", 100);
    for (let k = 1; k < keys; k += 3) store.compareAndSet(key(k), "a", "c", 2);
    vi.advanceTimersByTime(50_000);
    expect([store.get(key(0)), store.get(key(1)), store.get(key(2))]).toEqual(["b", null, null]);
    expect(heapAfterCollection() - before).toBeGreaterThan(1024 * 1024);
    vi.advanceTimersByTime(51_000);
    expect(store.get(key(0))).toBeNull();
    expect(heapAfterCollection() - before).toBeLessThan(1024 * 1024);
  });

  it("answers at once, and keeps a key rewritten with a later expiry until that expiry", () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000_000 });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const store = memoryAtomicStore();
    const at = (seconds: number) => {
      vi.advanceTimersByTime(seconds * 1000);
      return store.get("k");
    };
    expect(store.setIfAbsent("k", "a", 10)).toBe(true);
    expect(store.compareAndSet("k", "a", "b", 100)).toBe(true);
    expect(at(20)).toBe("b");
    expect(at(81)).toBeNull();
    expect(store.setIfAbsent("k", "c", 5)).toBe(true);
    store.delete("k");
    expect(store.setIfAbsent("k", "d", 50)).toBe(true);
    expect(store.setIfAbsent("k", "e", 50)).toBe(false);
    // Past the second "c" was listed under: "d", written since, is not what that second drops.
    expect(at(10)).toBe("d");
  });
});

describe("a store's operations, guarded", () => {
  it("give an answer given at once as it is, a thenable's failure as storage unavailable, and a throw as the bug it is", async () => {
    // biome-ignore lint/suspicious/noThenProperty: a thenable that is no Promise, as a Durable Object's answer is
    const refused = { then: (_: unknown, reject: (reason: Error) => void) => reject(new Error("down")) };
    const store = guarded({
      name: "test",
      now: () => 7,
      later: () => refused,
      broken: (): never => {
        throw new Error("a bug");
      },
    });
    expect(store.now()).toBe(7);
    await expect(store.later()).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(() => store.broken()).toThrow("a bug");
  });
});

// with:cloudflare
describe("the store of a Workers build", () => {
  const env = (durable: boolean) => ({
    MCP_KV: {},
    ...(durable ? { $DurableObject: { idFromName: () => ({}) } } : {}),
  });

  it("is Cloudflare's, alone", async () => {
    const stores = await storesOf("workers");
    expect(stores).toHaveLength(1);
    expect(opened(stores, env(true)).opened!.name).toMatch(/Cloudflare KV/);
  });

  it("with its Durable Object bound: atomic operations and every port", async () => {
    const { store, opened: chosen } = opened(await storesOf("workers"), env(true));
    expect(chosen!.atomic).toBeDefined();
    for (const port of PORTS) expect(store.ports[port]!(chosen!.client)).toBeDefined();
  });

  it("without it: no atomic operations, no port, and a message saying what to bind", async () => {
    const { store, opened: chosen } = opened(await storesOf("workers"), env(false));
    expect(chosen!.atomic).toBeUndefined();
    expect(chosen!.missingAtomic).toMatch(/bind the Durable Object/);
    for (const port of PORTS) expect(store.ports[port]!(chosen!.client)).toBeUndefined();
  });
});
// end with:cloudflare
