/** `npm run bench` itself is not part of `npm test` (machines are noisy); its smoke mode is, to prove the script works. */
import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";
import { findProgram } from "../helpers/programs.mjs";

it("runs the benchmark script end to end in smoke mode against every contender, and prints the tables with ratios and targets", () => {
  const run = spawnSync(process.execPath, ["tests/bench/run.mjs", "--smoke"], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  expect(run.status, run.stderr.slice(-3000)).toBe(0);
  for (const scenario of ["tools/list", "tools/call (text)", "MRTR retry round", "MRTR full flow", "server/discover"]) {
    // The summary row: the template's figure, then each of the five others with the template's ratio to it.
    expect(run.stdout).toMatch(new RegExp(`\\| ${scenario.replace(/[()/]/g, "\\$&")}[^|]* \\| \\*\\*[\\d,]+\\*\\*( \\| [\\d,]+ \\([\\d.]+×\\)){5} \\|`));
  }
  expect(run.stdout).toMatch(/\| `tools\/call` ÷ the Nitro floor \(req\/s\) \| ≥ 0\.90× \| [\d.]+× \| (met|\*\*missed\*\*) \|/);
  // The rate limit's cost: the call counted in memory (and on Redis, where redis-server is), against it unlimited.
  expect(run.stdout).toMatch(/\| nothing \(unlimited\) \| [\d,]+ \(/);
  expect(run.stdout).toMatch(/\| memory \| [\d,]+ \([^|]*\|[^|]*\|[^|]*\| -?[\d,.]+ \| -?[\d,]+ \|/);
  if (findProgram("redis-server")) expect(run.stdout).toMatch(/\| Redis \(same machine\) \| [\d,]+ \(/);
  expect(run.stdout).toMatch(/seal \+ open \(this template, node:crypto[^|]*\| [\d.]+ \|/);
  expect(run.stdout).toMatch(/Cold start of the Node build .*\*\*\d+ ms\*\*/);
  expect(run.stdout).toMatch(/\| Cloudflare Worker .* KB \|/);
}, 300_000);
