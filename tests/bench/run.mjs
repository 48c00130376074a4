#!/usr/bin/env node
/**
 * `npm run bench`: this template's Node build against two baselines and three peers, in one
 * interleaved run on this machine, plus micro-benchmarks, cold start and bundle sizes:
 *
 * - baselines: a bare h3 app, the floor of any Nitro app (a route built with this project's
 *   nitropack that reads the body and answers a constant), and the floor of any JSON-RPC server on
 *   Nitro (the same, parsing and checking the message and answering with its id): what no MCP
 *   server on them can beat;
 * - peers: the official SDK's stateless server, tmcp, and Vercel's mcp-handler, each with the
 *   same two tools (tests/bench/contenders/), on node:http;
 * - the cost of the request log and of the rate limit: the same tools/call with the log off, and
 *   with NITRO_MCP_RATE_LIMIT counted in memory and on Redis (with the Redis store, when redis-server is on PATH),
 *   against the template as deployed.
 *
 * Every server runs with V8's allocation-site pretenuring off (PROCESS_FLAGS): with it on, each Node process
 * of any of them settles at random, early, in one of two garbage-collection regimes 30-50 % apart in
 * throughput (two identical floor processes measured 28 and 42 µs of CPU a request), which made any ratio
 * a coin toss. Off, every process of a contender lands within a few percent of the others.
 *
 * Load comes from autocannon; contenders are interleaved and every measurement is repeated
 * (5 times by default), each time on fresh processes after a warm-up, reporting the median with min–max. Latency is measured separately, one
 * request at a time, in microseconds. Targets are reported, never asserted (machines are noisy).
 * Autocannon, the peers and esbuild are the benchmark's own packages (tests/bench/package.json),
 * installed on first use.
 *
 *   npm run bench                      full run, writes tests/bench/results.md
 *   node tests/bench/run.mjs --smoke   a few hundred requests, to prove the script works
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { bundleSize } from "../../server/build/dev/bundle-size.mjs";
import { buildTarget } from "../helpers/builds.mjs";
import { copyCheckout } from "../helpers/checkout-copy.mjs";
import { hasFeature } from "../helpers/project.mjs";
import { findProgram } from "../helpers/programs.mjs";
import { startServer } from "../helpers/server.mjs";
import { startRedis } from "../targets/redis.mjs";
import { ensureBenchDependencies } from "./dependencies.mjs";
import { canCountInstructions, instructionsPerRequest } from "./instructions.mjs";
import { median, renderReport } from "./report.mjs";
import { prepareOnAnotherInstance, profileSplit, promotedPerRequest } from "./profile.mjs";
import {
  JSONRPC_FLOOR_PATH,
  PROCESS_FLAGS,
  appDocuments,
  checkedRequests,
  costCall,
  firstCall,
  scenarios,
} from "./scenarios.mjs";

ensureBenchDependencies();
const { default: autocannon } = await import("autocannon");

const smoke = process.argv.includes("--smoke");
const settings = {
  processFlags: PROCESS_FLAGS,
  smoke,
  repeats: smoke ? 1 : Number(process.env.BENCH_REPEATS ?? 5),
  durationSeconds: Number(process.env.BENCH_SECONDS ?? 3),
  warmUpSeconds: smoke ? 0 : 1,
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
  latencySamples: smoke ? 50 : 1000,
  coldStarts: smoke ? 1 : 5,
};
/** A profile's length: long enough for its start (no warm-up: a profile starts with the process) to weigh little. */
const PROFILE_SECONDS = 5;
const TOOLS_CALL = "tools/call (text)";
const SECRET = "bench-secret-0123456789abcdef0123456789";
const withSecret = { NITRO_MCP_STATE_SECRET: SECRET };
const serve = (options) => startServer({ ...options, nodeArgs: PROCESS_FLAGS });
const peer = (file) => () => serve({ entry: `tests/bench/contenders/${file}`, env: withSecret });

/** `key` names a contender in scenarios.mjs too. */
const CONTENDERS = [
  // With its request log on, as deployed: what it prints goes down the pipe and is dropped here.
  {
    key: "template",
    label: "this template",
    start: () => serve({ output: ".output-bench", env: withSecret, keepOutput: false }),
  },
  {
    key: "jsonrpc-floor",
    label: "JSON-RPC floor: parse, check, answer with the id",
    baseline: true,
    start: async () => {
      const server = await serve({ output: ".output-nitro-floor" });
      return { ...server, url: server.url.replace(/\/mcp$/, JSONRPC_FLOOR_PATH) };
    },
  },
  {
    key: "nitro-floor",
    label: "Nitro floor: read body, answer a constant",
    baseline: true,
    start: () => serve({ output: ".output-nitro-floor" }),
  },
  {
    key: "bare",
    label: "bare h3: answer a constant",
    baseline: true,
    start: () => serve({ entry: "tests/bench/contenders/bare-h3.mjs" }),
  },
  { key: "sdk", label: "official SDK 2.4 server", start: peer("sdk.mjs") },
  { key: "tmcp", label: "tmcp 1.20", start: peer("tmcp.mjs") },
  { key: "mcp-handler", label: "mcp-handler 2.4", start: peer("mcp-handler.mjs") },
];

/** A limit no run reaches (the bench's one caller, 127.0.0.1, never exhausts it): what is measured is the counting. */
const NEVER_REACHED = { NITRO_MCP_RATE_LIMIT: "100000000/1000h" };

/**
 * The template with one thing changed, against the "template" contender (as deployed): its request log off, a rate
 * limit counted in memory and, with the Redis store when redis-server is there, on Redis.
 */
async function startVariants(variants) {
  const start = (env) => serve({ output: ".output-bench", env: { ...withSecret, ...env }, keepOutput: false });
  // As deployed, in a process of its own: warmed and measured like the variants (the "template" contender serves every scenario).
  variants.deployed = await start({});
  variants["log-off"] = await start({ NITRO_MCP_LOG_REQUESTS: "false" });
  variants.memory = await start(NEVER_REACHED);
  // with:redis
  if (!findProgram("redis-server")) {
    process.stderr.write("redis-server is not on PATH: the rate limit on Redis is not measured\n");
    return;
  }
  const redis = await startRedis();
  const server = await start({ ...NEVER_REACHED, REDIS_URL: redis.url }).catch(async (error) => {
    await redis.stop();
    throw error;
  });
  variants.redis = { ...server, stop: () => server.stop().finally(() => redis.stop()) };
  // end with:redis
}

const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

/**
 * Requests per second under load (autocannon). Every answer is checked: a JSON-RPC error in
 * a 200 body would otherwise pass for a fast success.
 */
async function throughput({ url, pid }, scenario, contender, seconds = settings.durationSeconds) {
  const { requests, errors } = checkedRequests(scenario.requests(url, contender));
  const cpuBefore = processCpuMicros(pid);
  const result = await autocannon({
    url,
    method: "POST",
    connections: settings.connections,
    requests,
    ...(smoke ? { amount: 300 } : { duration: seconds }),
  });
  const rpcErrors = errors();
  if (result.non2xx > 0 || result.errors > 0 || rpcErrors > 0) {
    throw new Error(
      `${scenario.name} on ${contender}: ${result.non2xx} non-2xx, ${result.errors} errors, ${rpcErrors} JSON-RPC errors`,
    );
  }
  const cpuAfter = processCpuMicros(pid);
  return {
    rps: result.requests.total / ((result.finish - result.start) / 1000),
    // No tick counted (a smoke run's few requests): no figure, rather than a ratio of zero.
    cpu: cpuAfter === undefined || cpuAfter === cpuBefore ? undefined : (cpuAfter - cpuBefore) / result.requests.total,
  };
}

/** The kernel's clock ticks a second, the unit of the CPU times in /proc. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) || 100;
  } catch {
    return 100;
  }
})();

/**
 * The CPU time process `pid` has used so far, every thread, user and system, in µs; undefined where /proc is not (macOS).
 * Over a run, per request, it varies less than requests per second do on a shared machine: a neighbour's burst slows the
 * whole run, but costs the server's own work little.
 */
function processCpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Latency of one request (or one flow) at a time, in microseconds. */
async function latency(run) {
  const samples = [];
  for (let i = 0; i < settings.latencySamples; i++) {
    const started = performance.now();
    await run(i);
    samples.push((performance.now() - started) * 1000);
  }
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/** The builds the bench runs or weighs: made afresh for a full run, reused by a smoke run when they exist. */
async function ensureBuilds() {
  const fresh = (output) => !smoke || !existsSync(`${output}/server/index.mjs`);
  for (const name of ["bench", "nitro-floor"]) if (fresh(`.output-${name}`)) await buildTarget(name);
  // with:cloudflare
  if (fresh(".output-cloudflare"))
    execFileSync("npm", ["run", "--silent", "build:cloudflare"], { stdio: ["ignore", "ignore", "inherit"] });
  // end with:cloudflare
}

/** Process start to the first successful tools/call of the Node build, in ms. */
async function coldStart() {
  const times = [];
  for (let i = 0; i < settings.coldStarts; i++) {
    const started = performance.now();
    const server = await startServer({ output: ".output-bench", env: withSecret, keepOutput: false });
    await firstCall(server.url);
    times.push(performance.now() - started);
    await server.stop();
  }
  return median(times);
}

/** The size of each MCP Apps document the Node build serves, as a client reads it. */
async function appDocumentSizes() {
  const server = await startServer({ output: ".output-bench", env: withSecret, keepOutput: false });
  try {
    return (await appDocuments(server.url)).map(({ uri, text }) => ({
      uri,
      raw: Buffer.byteLength(text),
      gzip: gzipSync(text, { level: 9 }).length,
    }));
  } finally {
    await server.stop();
  }
}

// with:cloudflare
/**
 * The Worker a fork without MCP Apps deploys: the picker removes the feature in a copy, which is built for Cloudflare
 * there. Undefined in a smoke run, and where the feature is already gone (the Worker bundle is then that one).
 */
function workerWithoutApps() {
  if (smoke || !hasFeature("apps")) return undefined;
  const copy = copyCheckout(process.cwd(), "bench-without-apps-");
  try {
    const quietly = { cwd: copy, stdio: ["ignore", "ignore", "inherit"] };
    execFileSync(process.execPath, ["server/build/dev/features.mjs", "remove", "apps"], quietly);
    execFileSync("npm", ["run", "--silent", "build:cloudflare"], quietly);
    return bundleSize(`${copy}/.output-cloudflare/server`);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
// end with:cloudflare

function microBenchmarks() {
  const run = spawnSync(process.execPath, ["tests/bench/micro.mjs", ...(smoke ? ["--smoke"] : [])], {
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`micro-benchmarks failed:\n${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** Every server runs what it will be measured on for a while first, so the measurement starts on optimized code. */
async function warmUp(servers, variants) {
  if (!settings.warmUpSeconds) return;
  for (const scenario of scenarios(settings)) {
    for (const contender of CONTENDERS) {
      await scenario.prepare?.(servers[contender.key].url, contender.key);
      await throughput(servers[contender.key], scenario, contender.key, settings.warmUpSeconds);
    }
  }
  for (const [variant, server] of Object.entries(variants))
    await throughput(server, costCall, variant, settings.warmUpSeconds);
}

/**
 * Instructions a tools/call costs (instructions.mjs), where valgrind is: the template as deployed, with its log off, and the
 * JSON-RPC floor; and the template's retry round. One after the other, each pair of runs using both cores. A smoke run counts
 * the template's call and retry and the floor, briefly.
 */
async function countInstructions() {
  if (!canCountInstructions()) {
    process.stderr.write("valgrind (with callgrind_annotate) is not on PATH: instructions a request are not counted\n");
    return undefined;
  }
  const amounts = smoke ? { warm: 100, counted: 100 } : { warm: 10_000, counted: 10_000 };
  const requests = costCall.requests();
  const template = { entry: ".output-bench/server/index.mjs", env: withSecret, path: "/mcp", requests };
  // The retry round's states, issued beforehand at full speed: under valgrind, issuing them would be most of the run. The two
  // runs draw from one pool, each state once (single use): a smoke run spends all 300 of its pool, a full run 30,000 of the
  // 40,000 its pool holds for every second measured, and one more.
  const retry = scenarios(settings).find(({ name }) => name.startsWith("MRTR retry"));
  await prepareOnAnotherInstance(retry, ".output-bench", withSecret);
  const servers = {
    deployed: template,
    retry: { ...template, requests: retry.requests() },
    ...(!smoke && { "log-off": { ...template, env: { ...withSecret, NITRO_MCP_LOG_REQUESTS: "false" } } }),
    "jsonrpc-floor": { entry: ".output-nitro-floor/server/index.mjs", env: {}, path: JSONRPC_FLOOR_PATH, requests },
  };
  const counted = {};
  for (const [name, server] of Object.entries(servers))
    counted[name] = await instructionsPerRequest(server, autocannon, amounts);
  return counted;
}

async function main() {
  await ensureBuilds();
  const measured = {}; // scenario → contender → { rps: [], cpu: [], p50: [], p99: [] }
  const costs = {}; // deployed | log-off | memory | redis → { rps: [], cpu: [], p50: [], p99: [] }
  for (let repeat = 0; repeat < settings.repeats; repeat++) {
    // Fresh processes for every repeat: two processes of the same build settle their JIT differently (six of the template
    // with its log off, same load, spent 48 to 69 µs of CPU a request), so a median over one process's repeats would keep its luck.
    const servers = {};
    const variants = {};
    try {
      for (const contender of CONTENDERS) servers[contender.key] = await contender.start();
      await startVariants(variants);
      await warmUp(servers, variants);
      for (const [variant, server] of Object.entries(variants)) {
        costs[variant] ??= { rps: [], cpu: [], p50: [], p99: [] };
        const slot = costs[variant];
        const { rps, cpu } = await throughput(server, costCall, variant);
        slot.rps.push(rps);
        if (cpu !== undefined) slot.cpu.push(cpu);
        const { p50, p99 } = await latency(() => costCall.call(server.url));
        slot.p50.push(p50);
        slot.p99.push(p99);
      }
      for (const scenario of scenarios(settings)) {
        for (const contender of CONTENDERS) {
          const url = servers[contender.key].url;
          measured[scenario.name] ??= {};
          const byContender = measured[scenario.name];
          byContender[contender.key] ??= { rps: [], cpu: [], p50: [], p99: [] };
          const slot = byContender[contender.key];
          await scenario.prepare?.(url, contender.key);
          const { rps, cpu } = await throughput(servers[contender.key], scenario, contender.key);
          const perUnit = scenario.requestsPerUnit ?? 1;
          slot.rps.push(rps / perUnit);
          if (cpu !== undefined) slot.cpu.push(cpu * perUnit);
          const { p50, p99 } = await latency((i) => scenario.call(url, contender.key, i));
          slot.p50.push(p50);
          slot.p99.push(p99);
          process.stderr.write(".");
        }
      }
    } finally {
      // allSettled: a failed stop must not hide the error that brought us here.
      await Promise.allSettled([...Object.values(servers), ...Object.values(variants)].map((server) => server.stop()));
    }
  }
  process.stderr.write("\n");

  // Where a request's CPU goes (profile.mjs), on a server of its own once the others are stopped: tools/call, and the retry round.
  const profiled = scenarios(settings).filter(
    (scenario) => scenario.name === TOOLS_CALL || (!smoke && scenario.name.startsWith("MRTR retry")),
  );
  const splits = [];
  for (const scenario of profiled) {
    const seconds = smoke ? 1 : PROFILE_SECONDS;
    const split = await profileSplit(scenario, seconds, autocannon);
    // tools/call beside the JSON-RPC floor: what the template adds, part by part.
    if (scenario.name === TOOLS_CALL) split.floor = await profileSplit(scenario, seconds, autocannon, "jsonrpc-floor");
    splits.push(split);
  }

  // What each request leaves for the old generation: tools/call, and both MRTR rounds (the seal, the open and the claim).
  const promoted = {};
  const promotedScenarios = scenarios(settings).filter(
    ({ name }) => name === TOOLS_CALL || name.startsWith("MRTR full"),
  );
  for (const scenario of promotedScenarios)
    promoted[scenario.name] = await promotedPerRequest(scenario, smoke ? 1 : PROFILE_SECONDS, autocannon);

  const instructions = await countInstructions();

  const report = renderReport({
    instructions,
    splits,
    promoted,
    settings,
    contenders: CONTENDERS,
    measured,
    costs,
    micro: microBenchmarks(),
    coldStartMs: await coldStart(),
    nodeBundle: bundleSize(".output-bench/server"),
    // with:cloudflare
    workerBundle: bundleSize(".output-cloudflare/server"),
    workerWithoutApps: workerWithoutApps(),
    appsFeature: hasFeature("apps"),
    // end with:cloudflare
    appDocuments: await appDocumentSizes(),
  });
  console.log(report);
  if (!smoke) writeFileSync("tests/bench/results.md", report);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
