#!/usr/bin/env node
/**
 * `npm run bench`: this template's Node build against (b) the official SDK's stateless
 * server and (c) a bare h3 app answering a fixed JSON-RPC result (the ceiling), in one
 * run on this machine, plus micro-benchmarks, cold start and bundle sizes.
 *
 * Load comes from autocannon (10 connections); contenders are interleaved and every
 * measurement is repeated (3 times by default), reporting the median with min–max.
 * Latency is measured separately, one request at a time, in microseconds.
 *
 *   npm run bench                 full run, writes tests/bench/results.md
 *   node tests/bench/run.mjs --smoke   a few hundred requests, to prove the script works
 *
 * The template runs as the benchmark build (the server plus tests/bench/fixtures: the same two
 * tools every contender has); run.mjs makes it, and the Cloudflare build, when missing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import autocannon from "autocannon";
import { buildTarget } from "../helpers/builds.mjs";
import { startServer } from "../helpers/server.mjs";
import { bundleSize } from "../../server/build/bundle-size.mjs";
import { firstCall, scenarios } from "./scenarios.mjs";

const smoke = process.argv.includes("--smoke");
const REPEATS = smoke ? 1 : Number(process.env.BENCH_REPEATS ?? 3);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const LATENCY_SAMPLES = smoke ? 50 : 1000;
const SECRET = "bench-secret-0123456789abcdef0123456789";

const CONTENDERS = [
  { key: "template", label: "(a) this template", start: () => startServer({ output: ".output-bench", env: { NITRO_MCP_STATE_SECRET: SECRET } }) },
  { key: "sdk", label: "(b) official SDK server", start: () => startServer({ entry: "tests/bench/sdk-server.mjs", env: { NITRO_MCP_STATE_SECRET: SECRET } }) },
  { key: "bare", label: "(c) bare h3, fixed result", start: () => startServer({ entry: "tests/bench/bare-h3.mjs" }) },
];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

/**
 * Requests per second under load (autocannon). Every answer is checked: a JSON-RPC error in
 * a 200 body would otherwise pass for a fast success.
 */
async function throughput(url, scenario, contender) {
  let rpcErrors = 0;
  const requests = scenario.requests(url, contender).map((step) => ({
    ...step,
    onResponse: (status, text, context) => {
      if (text.includes('"error"')) rpcErrors++;
      step.onResponse?.(status, text, context);
    },
  }));
  const result = await autocannon({
    url,
    method: "POST",
    connections: CONNECTIONS,
    requests,
    ...(smoke ? { amount: 300 } : { duration: DURATION_S }),
  });
  if (result.non2xx > 0 || result.errors > 0 || rpcErrors > 0) {
    throw new Error(`${scenario.name} on ${contender}: ${result.non2xx} non-2xx, ${result.errors} errors, ${rpcErrors} JSON-RPC errors`);
  }
  return result.requests.total / ((result.finish - result.start) / 1000);
}

/** Latency of one request (or one flow) at a time, in microseconds. */
async function latency(run) {
  const samples = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const started = performance.now();
    await run(i);
    samples.push((performance.now() - started) * 1000);
  }
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/** The benchmark's build (the server plus tests/bench/fixtures), and the Cloudflare build whose size is reported. */
async function ensureBuilds() {
  if (!existsSync(".output-bench/server/index.mjs")) await buildTarget("bench");
  if (!existsSync(".output-cloudflare/server/index.mjs")) execFileSync("npm", ["run", "--silent", "build:cloudflare"], { stdio: ["ignore", "ignore", "inherit"] });
}

async function coldStart() {
  const times = [];
  for (let i = 0; i < (smoke ? 1 : 5); i++) {
    const started = performance.now();
    const server = await startServer({ output: ".output-bench", env: { NITRO_MCP_STATE_SECRET: SECRET } });
    await firstCall(server.url);
    times.push(performance.now() - started);
    await server.stop();
  }
  return median(times);
}

function microBenchmarks() {
  const run = spawnSync(process.execPath, ["tests/bench/micro.mjs", ...(smoke ? ["--smoke"] : [])], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`micro-benchmarks failed:\n${run.stderr}`);
  return JSON.parse(run.stdout);
}

async function main() {
  await ensureBuilds();
  const servers = {};
  for (const contender of CONTENDERS) servers[contender.key] = await contender.start();
  const measured = {}; // scenario → contender → { rps: [], p50: [], p99: [] }
  try {
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      for (const scenario of scenarios({ smoke })) {
        for (const contender of CONTENDERS) {
          const url = servers[contender.key].url;
          const slot = ((measured[scenario.name] ??= {})[contender.key] ??= { rps: [], p50: [], p99: [] });
          await scenario.prepare?.(url, contender.key);
          slot.rps.push((await throughput(url, scenario, contender.key)) / (scenario.requestsPerUnit ?? 1));
          const { p50, p99 } = await latency((i) => scenario.call(url, contender.key, i));
          slot.p50.push(p50);
          slot.p99.push(p99);
          process.stderr.write(".");
        }
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
  process.stderr.write("\n");

  const micro = microBenchmarks();
  const cold = await coldStart();
  const nodeBundle = bundleSize(".output-bench/server");
  const workerBundle = bundleSize(".output-cloudflare/server");
  const report = render({ measured, micro, cold, nodeBundle, workerBundle });
  console.log(report);
  if (!smoke) writeFileSync("tests/bench/results.md", report);
}

const fmt = (value, digits = 0) => value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const spread = (values, digits = 0) => `${fmt(median(values), digits)} (${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)})`;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

function render({ measured, micro, cold, nodeBundle, workerBundle }) {
  const lines = [];
  lines.push(`# Benchmark results`, "");
  lines.push(
    `${new Date().toISOString().slice(0, 10)} · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model.trim()} · ` +
      `${REPEATS} repeat(s), ${smoke ? "300 requests" : `${DURATION_S} s`} each, ${CONNECTIONS} connections (autocannon); ` +
      `latency: ${LATENCY_SAMPLES} sequential requests, µs`,
    "",
  );
  if (smoke) lines.push("**Smoke mode: 300 requests per run, too few for meaningful figures. It only proves the script works.**", "");
  lines.push("Medians over the repeats, with min–max. a/b and a/c compare throughput.", "");
  lines.push("| scenario | contender | req/s | p50 µs | p99 µs | a/b | a/c |", "|---|---|---|---|---|---|---|");
  for (const [name, byContender] of Object.entries(measured)) {
    const rps = (key) => median(byContender[key].rps);
    for (const contender of CONTENDERS) {
      const slot = byContender[contender.key];
      const ratios = contender.key === "template" ? [`**${fmt(rps("template") / rps("sdk"), 2)}×**`, `**${fmt(rps("template") / rps("bare"), 2)}×**`] : ["", ""];
      lines.push(`| ${contender.key === "template" ? name : ""} | ${contender.label} | ${spread(slot.rps)} | ${spread(slot.p50)} | ${spread(slot.p99)} | ${ratios.join(" | ")} |`);
    }
  }
  lines.push("", "Micro-benchmarks (in process, median of batches):", "");
  lines.push("| operation | µs per operation |", "|---|---|");
  for (const [name, value] of Object.entries(micro)) lines.push(`| ${name} | ${fmt(value, 2)} |`);
  lines.push("", `Cold start of the Node build (process start → first successful tools/call, median of ${smoke ? 1 : 5}): **${fmt(cold, 0)} ms**`, "");
  lines.push("| bundle | files | raw | gzip |", "|---|---|---|---|");
  lines.push(`| Node (.output-bench/server, without node_modules) | ${nodeBundle.files} | ${kb(nodeBundle.raw)} | ${kb(nodeBundle.gzip)} |`);
  lines.push(`| Cloudflare Worker (.output-cloudflare/server) | ${workerBundle.files} | ${kb(workerBundle.raw)} | ${kb(workerBundle.gzip)} |`);
  return lines.join("\n") + "\n";
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
