/** `npm run bench` itself is not part of `npm test` (machines are noisy); its smoke mode is, to prove the script works. */
import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";

it("runs the benchmark script end to end in smoke mode and prints the table with ratios", () => {
  const run = spawnSync(process.execPath, ["tests/bench/run.mjs", "--smoke"], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  expect(run.status, run.stderr.slice(-3000)).toBe(0);
  for (const scenario of ["tools/list", "tools/call (text)", "MRTR retry round", "MRTR full flow", "server/discover"]) {
    expect(run.stdout).toContain(`| ${scenario}`);
  }
  expect(run.stdout).toMatch(/\| \(a\) this template \| [\d,]+ .*\| \*\*[\d.]+×\*\* \| \*\*[\d.]+×\*\* \|/);
  expect(run.stdout).toMatch(/seal \+ open \(this template\) \| [\d.]+ \|/);
  expect(run.stdout).toMatch(/Cold start of the Node build .*\*\*\d+ ms\*\*/);
  expect(run.stdout).toMatch(/\| Cloudflare Worker .* KB \|/);
}, 300_000);
