/**
 * `npm run soak` itself is not part of `npm test` (it takes ten minutes); five seconds of it are, with its error targets and
 * its memory samples, and the trend it judges memory by.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { lastHalfTrend } from "./soak-trend.mjs";

it("survives five seconds of mixed traffic at 64 connections: no unexpected error, no 5xx, the server's memory sampled", () => {
  const run = spawnSync(process.execPath, ["tests/bench/soak.mjs", "--smoke"], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(run.status, run.stdout.slice(-3000) + run.stderr.slice(-3000)).toBe(0);
  expect(run.stdout).toMatch(/unexpected errors: \*\*0\*\* · 5xx: \*\*0\*\*/);
  // A full flow is "ok" only when its connection's own counter went up by exactly one.
  for (const scenario of ["plainCall ok", "list ok", "fullFlow ok", "abandonedStream ok", "badInput refused"])
    expect(run.stdout).toContain(scenario);
  // The idle sample and at least one under load, each with the RSS and the route's figures after a gc.
  expect(run.stdout).toMatch(/^\| idle( \| \d+\.\d){6} \|$/m);
  expect(run.stdout).toMatch(/^\| \d+( \| \d+\.\d){6} \|$/m);
}, 120_000);

describe("the trend over the last half", () => {
  const samples = (values: number[]) => values.map((rss, index) => ({ seconds: index * 30, rss }));

  it("is flat for a level figure with passing spikes, even one at the very end", () => {
    const trend = lastHalfTrend(samples([90, 100, 101, 99, 118, 100, 99, 101, 100, 125]), "rss", 30);
    expect(trend?.largestVsFirst).toBeCloseTo(0.25);
    expect(Math.abs(trend?.rise ?? Infinity)).toBeLessThan(0.03);
  });

  it("rises by what a steady leak adds over the half, whatever a spike among the samples", () => {
    // 2 MB a sample from 100 MB, one sample 20 MB high: the line goes from 100 to 110 MB.
    const trend = lastHalfTrend(samples([80, 90, 100, 102, 104, 130, 108, 110]), "rss", 60);
    expect(trend?.seconds).toEqual([60, 210]);
    expect(trend?.from).toBeCloseTo(100, 5);
    expect(trend?.to).toBeCloseTo(110, 5);
    expect(trend?.rise).toBeCloseTo(0.1, 5);
  });

  it("judges only the last half, and nothing with fewer than three samples there", () => {
    expect(lastHalfTrend(samples([10, 50, 100, 100, 100]), "rss", 60)?.rise).toBeCloseTo(0);
    expect(lastHalfTrend(samples([100, 100, 100, 100]), "rss", 61)).toBeUndefined();
  });
});
