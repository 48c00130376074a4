/**
 * Instructions a request: a server run under valgrind's callgrind, which counts every instruction the process executes, in
 * every thread (JavaScript, V8's garbage collector, Node, the C library). Requests a second and CPU time move by a third from
 * one minute to the next on a shared machine; what else the machine does moves this count by a few percent at most (through
 * what depends on time: timers, caches kept for a millisecond, when a collection starts), so it shows a change that they cannot.
 *
 * Each server runs twice, for WARM requests and for WARM + COUNTED, the two runs side by side; the difference over COUNTED is
 * one request once warm. V8's compilers, parser and assemblers, still busy in a run this short, are left out by their symbols
 * (a warm server has done compiling); garbage collection stays in. Under valgrind the server runs some fifty times slower, so what is
 * cached by the clock (the log's time, formatted once a millisecond) is cached less often than at full speed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findProgram, inCI } from "../helpers/programs.mjs";
import { baseEnv, startProcess } from "../helpers/server.mjs";
import { PROCESS_FLAGS, checkedRequests } from "./scenarios.mjs";

/** Functions of V8's compilers, parser and assemblers, by their C++ names: work a warm server no longer does. */
const COMPILING =
  /v8::internal::(compiler::|maglev::|baseline::|interpreter::|Compiler::|(Pre)?Parser|Scanner|Ast|(Declaration)?Scope::|(Macro)?Assembler|SourcePositionTableBuilder)/;

/** Whether the counts can be taken here: valgrind and its annotator on PATH. */
export const canCountInstructions = () => Boolean(findProgram("valgrind") && findProgram("callgrind_annotate"));

/** Whether a run must show the counts: where they can be taken, and always under CI, which installs valgrind. */
export const countsExpected = () => inCI() || canCountInstructions();

/** The instructions of a run's output file, those of V8's compilers left out. */
function countedInstructions(file) {
  // Every function (threshold 100 %), and no source annotated: its lines carry counts too, which would count twice.
  const listing = execFileSync("callgrind_annotate", ["--threshold=100", "--auto=no", file], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  let total = 0;
  for (const [, count, name] of listing.matchAll(/^\s*([\d,]+) \([^)]*\)\s+(.+)$/gm)) {
    if (name.includes("PROGRAM TOTALS")) continue;
    if (!COMPILING.test(name)) total += Number(count.replaceAll(",", ""));
  }
  return total;
}

/**
 * The instructions of one server, started by `entry` with `env`, answering `requests` (autocannon's) `amount` times from
 * 4 connections after the start.
 */
async function runCounted({ entry, env, path, requests, amount }, autocannon, dir, name) {
  const file = join(dir, `${name}.callgrind`);
  const server = await startProcess({
    command: "valgrind",
    args: ["--tool=callgrind", "--smc-check=all-non-file", `--callgrind-out-file=${file}`, process.execPath].concat(
      PROCESS_FLAGS,
      entry,
    ),
    env: { HOST: "127.0.0.1", PORT: "0", ...baseEnv(env) },
    ready: /Listening on (http:\/\/\S+)/,
    timeoutMs: 180_000,
    keepOutput: false,
  });
  try {
    // Every answer checked: a JSON-RPC error in a 200 body would be counted as the request's cost.
    const checked = checkedRequests(requests);
    const url = `${server.base}${path}`;
    const result = await autocannon({ url, method: "POST", connections: 4, amount, requests: checked.requests });
    const rpcErrors = checked.errors();
    if (result.non2xx > 0 || result.errors > 0 || rpcErrors > 0)
      throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${rpcErrors} JSON-RPC errors`);
  } finally {
    await server.stop();
  }
  return countedInstructions(file);
}

/**
 * Instructions one request of `server` costs once warm: `server` is `{ entry, env, path, requests }`, `requests` as
 * autocannon takes them (every answer a 2xx).
 * @example await instructionsPerRequest({ entry: ".output-bench/server/index.mjs", env, path: "/mcp", requests }, autocannon, { warm: 10_000, counted: 10_000 })
 */
export async function instructionsPerRequest(server, autocannon, { warm, counted }) {
  const dir = mkdtempSync(join(tmpdir(), "bench-callgrind-"));
  try {
    // Both runs settled before the folder goes: a failed one must not leave the other writing into it.
    const [short, long] = await Promise.allSettled([
      runCounted({ ...server, amount: warm }, autocannon, dir, "warm"),
      runCounted({ ...server, amount: warm + counted }, autocannon, dir, "counted"),
    ]);
    for (const run of [short, long]) if (run.status === "rejected") throw run.reason;
    return (long.value - short.value) / counted;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
