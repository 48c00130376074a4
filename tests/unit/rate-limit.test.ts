/** The rate-limit arithmetic (GCRA), its setting's format, and the stores' counters in this process under concurrency. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { parseRate } from "../../server/features/rate-limit/rate";
import filesCounter from "../../server/storage/files/counter";
import { filesAtomicStore } from "../../server/storage/files/node";
import { countWith, gcraStep } from "../../server/storage/gcra";
import memoryCounter from "../../server/storage/memory/counter";
import { memoryAtomicStore } from "../../server/storage/memory/node";

/** Runs `count` requests at the same instant `now`, carrying the stored TAT along as a store would. */
function burstAt(now: number, count: number, limit: number, windowMs: number) {
  let stored: number | null = null;
  const steps = [];
  for (let i = 0; i < count; i++) {
    const step = gcraStep(stored, now, limit, windowMs);
    if (step.allowed) stored = step.tat;
    steps.push(step);
  }
  return { allowed: steps.filter((step) => step.allowed).length, steps, stored };
}

describe("gcraStep", () => {
  it("allows a burst of exactly the limit at one instant, whatever the float rounding of window ÷ limit", () => {
    for (const [limit, windowMs] of [
      [1, 1000],
      [3, 3_600_000],
      [7, 60_000],
      [600, 60_000],
      [1000, 1000],
    ] as const) {
      for (const now of [0, 1_764_550_000_123, 1_764_550_000_123.456])
        expect(burstAt(now, limit + 5, limit, windowMs).allowed, `${limit}/${windowMs} at ${now}`).toBe(limit);
    }
  });

  it("refuses with the time until the next request fits, and allows it then", () => {
    const { steps, stored } = burstAt(1000, 11, 10, 60_000);
    expect(steps[10]).toMatchObject({ allowed: false, retryAfterMs: 6000 });
    expect(gcraStep(stored, 1000 + 5999, 10, 60_000).allowed).toBe(false);
    expect(gcraStep(stored, 1000 + 6000, 10, 60_000).allowed).toBe(true);
  });

  it("keeps a key only as long as it matters", () => {
    expect(gcraStep(null, 0, 10, 60_000)).toEqual({ allowed: true, retryAfterMs: 0, tat: 6000, ttlMs: 6000 });
  });
});

describe("parseRate", () => {
  it("reads a count per window in ms, s, m or h", () => {
    expect(parseRate("600/60s", "X")).toEqual({ limit: 600, windowMs: 60_000 });
    expect(parseRate(" 10/1h ", "X")).toEqual({ limit: 10, windowMs: 3_600_000 });
    expect(parseRate("5/250ms", "X")).toEqual({ limit: 5, windowMs: 250 });
    expect(parseRate("2/3m", "X")).toEqual({ limit: 2, windowMs: 180_000 });
  });

  it("refuses anything else, naming what was wrong", () => {
    for (const bad of ["", "600", "0/60s", "600/0s", "600/60", "-1/60s", "1.5/60s", "600/60d", "600 per 60s"]) {
      expect(() => parseRate(bad, "NITRO_MCP_RATE_LIMIT"), bad).toThrow(
        /^NITRO_MCP_RATE_LIMIT must look like 600\/60s/,
      );
    }
    expect(() => parseRate("2000/1s", "NITRO_MCP_RATE_LIMIT")).toThrow(/at most one request per millisecond/);
  });
});

describe("counting under concurrency (a compare-and-set over the store's atomic operations)", () => {
  it("a compare-and-set over the memory store's operations: 200 at once, 50 allowed", async () => {
    const store = memoryAtomicStore();
    const results = await Promise.all(Array.from({ length: 200 }, () => countWith(store, "k", 50, 3_600_000)));
    expect(results.filter((result) => result.allowed).length).toBe(50);
    expect(results.find((result) => !result.allowed)!.retryAfterMs).toBeGreaterThan(0);
  });

  it("the memory store's counter, a table of its own: 200 at once, 50 allowed, keys apart", async () => {
    const consume = memoryCounter();
    const results = await Promise.all(Array.from({ length: 200 }, () => consume("k", 50, 3_600_000)));
    expect(results.filter((result) => result.allowed).length).toBe(50);
    expect(results.find((result) => !result.allowed)!.retryAfterMs).toBeGreaterThan(0);
    expect((await consume("other", 50, 3_600_000)).allowed).toBe(true);
  });

  it("in memory, a large table is swept of keys past their window, never of a key still counting", async () => {
    // The clock is the test's: the sweep runs at a known moment (the 10,000th key), after the short windows have passed.
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000 });
    try {
      const consume = memoryCounter();
      expect((await consume("live", 1, 3_600_000)).allowed).toBe(true);
      for (let i = 0; i < 9_999; i++) await consume(`caller-${i}`, 1, 1);
      vi.setSystemTime(1_000_005);
      expect((await consume("live", 1, 3_600_000)).allowed).toBe(false); // swept here, and kept
      expect((await consume("caller-0", 1, 1)).allowed).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  // with:files
  it("on files, through two stores on one folder (two processes): 40 at once, 10 allowed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-rate-"));
    const stores = [filesAtomicStore(dir), filesAtomicStore(dir)].map((atomic) => filesCounter(atomic)!);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => stores[i % 2]!("k", 10, 3_600_000)));
    expect(results.filter((result) => result.allowed).length).toBe(10);
  });
  // end with:files
});
