/** `npm run bench` itself is not part of `npm test` (machines are noisy); its smoke mode is, to prove the script works. */
import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";
import { findProgram } from "../helpers/programs.mjs";
import { countsExpected } from "./instructions.mjs";

/** A ratio or a cost also given by the server's CPU a request, where /proc is (Linux), and by instructions, where valgrind is. */
const BY_CPU = "( \\(by (CPU|instructions): -?[\\d.]+ ?[×%](, by instructions: -?[\\d.]+ ?[×%])?\\))?";

it("runs the benchmark script end to end in smoke mode against every contender, and prints the tables with ratios and targets", () => {
  const run = spawnSync(process.execPath, ["tests/bench/run.mjs", "--smoke"], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(run.status, run.stderr.slice(-3000)).toBe(0);
  for (const scenario of ["tools/list", "tools/call (text)", "MRTR retry round", "MRTR full flow", "server/discover"]) {
    // The summary row: the template's figure, then each of the six others with the template's ratio to it.
    expect(run.stdout).toMatch(
      new RegExp(
        `\\| ${scenario.replace(/[()/]/g, "\\$&")}[^|]* \\| \\*\\*[\\d,]+\\*\\*( \\| [\\d,]+ \\([\\d.]+×\\)){6} \\|`,
      ),
    );
  }
  for (const floor of ["JSON-RPC floor", "Nitro floor"]) {
    expect(run.stdout).toMatch(
      new RegExp(
        `\\| \`tools/call\` ÷ the ${floor} \\(req/s\\) \\| ≥ 0\\.\\d+× \\| [\\d.]+×${BY_CPU} \\| (met|\\*\\*missed\\*\\*) \\|`,
      ),
    );
  }
  expect(run.stdout).toMatch(
    new RegExp(`\\| the request log's cost[^|]*\\| ≤ 5 % \\| -?[\\d.]+ %${BY_CPU} \\| (met|\\*\\*missed\\*\\*) \\|`),
  );
  // Every figure: the server's CPU a request beside its requests a second, where /proc is (Linux).
  expect(run.stdout).toMatch(/\| tools\/call \(text\) \| this template \| [\d,]+ \([^|]*\| ([\d,.]+ \(|–)/);
  // What each request leaves to V8's old generation, tools/call and the MRTR flow (a figure: profile.mjs fails on none read).
  for (const scenario of ["tools/call \\(text\\)", "MRTR full flow"])
    expect(run.stdout).toMatch(
      new RegExp(
        `\\| ${scenario}[^|]*: bytes V8 promotes [^|]*\\| ≤ 1,024 \\| [\\d,]+ \\| (met|\\*\\*missed\\*\\*) \\|`,
      ),
    );
  // What the log and the rate limit cost: the call with each changed (Redis where redis-server is), against it as deployed.
  expect(run.stdout).toMatch(/\| as deployed \| [\d,]+ \(/);
  const variants = ["request log off", "rate limit, counted in memory"];
  // with:redis
  if (findProgram("redis-server")) variants.push("rate limit, counted on Redis");
  // end with:redis
  for (const variant of variants) {
    expect(run.stdout).toMatch(
      new RegExp(
        `\\| ${variant.replace(/[()]/g, "\\$&")}[^|]* \\| [\\d,]+ \\([^|]*\\|[^|]*\\|[^|]*\\|[^|]*\\| -?[\\d,.]+ \\| (-?[\\d,.]+)? \\| -?[\\d,]+ \\|`,
      ),
    );
  }
  // Where a request's CPU goes: the profile's split, the template's own modules and the platform's parts among them. (Figures
  // carry thousands separators: a smoke run profiles one second on a busy machine, a few thousand µs a request.)
  // tools/call's split has the JSON-RPC floor's beside it, part by part.
  expect(run.stdout).toMatch(
    /\*\*tools\/call \(text\)\*\*: [\d,.]+ µs of main-thread CPU a request .*; the JSON-RPC floor under the same load, [\d,.]+ µs/,
  );
  expect(run.stdout).toMatch(/\| template: server\/mcp\/[\w/-]+\.ts \| [\d.]+ \| [\d.]+ % \| [\d.]+ \| -?[\d.]+ \|/);
  expect(run.stdout).toMatch(
    /\| Node: HTTP parser and server, streams, events, timers \| [\d.]+ \| [\d.]+ % \| [\d.]+ \| -?[\d.]+ \|/,
  );
  // Instructions a request, where valgrind is (always under CI, which installs it): the template and the floor, the ratio
  // in the table and beside the target.
  if (countsExpected()) {
    expect(run.stdout).toMatch(/## Instructions a request[\s\S]*?\| this template, as deployed \| [\d,]+ \| {2}\|/);
    expect(run.stdout).toMatch(/\| JSON-RPC floor: parse, check, answer with the id \| [\d,]+ \| [\d.]+× \|/);
    expect(run.stdout).toMatch(
      /\| `tools\/call` ÷ the JSON-RPC floor \(req\/s\) \|[^|]*\|[^|]*by instructions: [\d.]+×\)/,
    );
    // The retry round too: its count, and its ratio to the call beside the retry's target.
    expect(run.stdout).toMatch(
      /The MRTR retry round, the template as deployed .*: [\d,]+ instructions a request, [\d.]+× as fast/,
    );
    expect(run.stdout).toMatch(
      /\| MRTR retry round ÷ the template's own `tools\/call` \(req\/s\) \|[^|]*\|[^|]*by instructions: [\d.]+×\)/,
    );
  }
  expect(run.stdout).toMatch(/seal \+ open \(this template, node:crypto[^|]*\| [\d,.]+ \|/);
  expect(run.stdout).toMatch(/Cold start of the Node build .*\*\*[\d,]+ ms\*\*/);
  // with:cloudflare
  expect(run.stdout).toMatch(/\| Cloudflare Worker .* KB \|/);
  // end with:cloudflare
}, 300_000);
