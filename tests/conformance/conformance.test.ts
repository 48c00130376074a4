/**
 * `npm run conformance` as part of `npm test`: the official suite at 2026-07-28, with the extension scenarios and the
 * older revisions of the parts this checkout has (tests/conformance/runs.mjs). Fails on any FAILURE or WARNING, and on
 * any failing scenario the suite prints (a fork runs none of a removed part's); prints the suite's summaries and the
 * verdict (with what was skipped, and why).
 */
import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";

it("passes the official MCP conformance suite for 2026-07-28 and the parts' extensions with no failures and no warnings", () => {
  // The global setup made the conformance build already.
  const run = spawnSync(process.execPath, ["tests/conformance/run.mjs", "--no-build"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const summary = run.stdout
    .split("\n")
    .filter((line) => /^(✓|✗|Total:|Not scored|\s+[✓✗] |\[conformance\]|\s+--|\s+\()/.test(line));
  console.log(summary.join("\n"));
  expect(run.stderr).not.toMatch(/Error: /);
  expect(run.status, run.stdout.slice(-4000)).toBe(0);
  expect(summary.filter((line) => /^\s*✗/.test(line))).toEqual([]);
}, 900_000);
