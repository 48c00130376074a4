/**
 * `npm run conformance` as part of `npm test`: the official suite, 2026-07-28, with no
 * expected-failures file. Fails on any FAILURE or WARNING; prints the suite's summaries.
 */
import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";

it("passes the official MCP conformance suite for 2026-07-28 with no failures and no warnings", () => {
  // The global setup made the fixture build already.
  const run = spawnSync(process.execPath, ["tests/conformance/run.mjs", "--no-build"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const summary = run.stdout
    .split("\n")
    .filter((line) => /^(✓|✗|Total:|Not scored|\s+[✓✗] |\[conformance\]|\s+--|\s+\(not gated)/.test(line));
  console.log(summary.join("\n"));
  expect(run.stderr).not.toMatch(/Error: /);
  expect(run.status, run.stdout.slice(-4000)).toBe(0);
}, 900_000);
