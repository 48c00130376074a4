/** `npm run soak` itself is not part of `npm test` (it takes a minute); five seconds of it are, with its error targets. */
import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";

it("survives five seconds of mixed traffic at 64 connections: no unexpected error, no 5xx", () => {
  const run = spawnSync(process.execPath, ["tests/bench/soak.mjs", "--smoke"], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(run.status, run.stdout.slice(-3000) + run.stderr.slice(-3000)).toBe(0);
  expect(run.stdout).toMatch(/unexpected errors: \*\*0\*\* · 5xx: \*\*0\*\*/);
  for (const scenario of ["plainCall ok", "list ok", "fullFlow ok", "abandonedStream ok", "badInput refused"])
    expect(run.stdout).toContain(scenario);
}, 120_000);
