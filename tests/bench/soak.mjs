#!/usr/bin/env node
/**
 * `npm run soak`: 10 minutes of mixed traffic at 64 concurrent connections against the node build with the test fixtures:
 * plain calls, lists, full MRTR flows, abandoned SSE streams and bad inputs. Every 30 s it samples the server's memory: its
 * RSS as the system sees it, then, after a full garbage collection, V8's heap and the memory outside it (the fixture route
 * `/_test/memory`). Prints requests, errors by class, p50/p99, every sample and how each figure moved over the last half.
 *
 * Targets: no unexpected error, no 5xx, and memory flat over the last half of the run: the line fitted through the last
 * half's samples (soak-trend.mjs) rises by at most 10 % over that half, for the RSS and the heap used after a full collection.
 * Exits non-zero when one is missed. Writes tests/bench/soak-results.md (not in smoke mode). See the README's soak section.
 *
 *   npm run soak                                            600 s, a sample every 30 s
 *   SOAK_SECONDS=300 SOAK_SAMPLE_SECONDS=15 npm run soak    another length, another sampling
 *   SOAK_NODE_FLAGS=--max-old-space-size=100 npm run soak   more flags for the server's node
 *   node tests/bench/soak.mjs --smoke                       5 s, memory sampled but not judged (npm test runs this)
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { buildTarget } from "../helpers/builds.mjs";
import { RECORD_MARK } from "../helpers/leftovers.mjs";
import { OUTPUT, startServer } from "../helpers/server.mjs";
import { lastHalfTrend } from "./soak-trend.mjs";

const smoke = process.argv.includes("--smoke");
const DURATION_MS = (smoke ? 5 : Number(process.env.SOAK_SECONDS ?? 600)) * 1000;
const SAMPLE_MS = (smoke ? 1 : Number(process.env.SOAK_SAMPLE_SECONDS ?? 30)) * 1000;
const CONNECTIONS = 64;
const GROWTH_BOUND = 0.1;
/**
 * The figures judged, both read after a full collection, so that garbage waiting for one is not counted. The RSS is what an
 * operator watches, but it absorbs growth in pages the process already holds: on a loaded machine a steady leak of live
 * objects can take longer than the run to show there. The heap used counts live objects only, and shows such a leak from the
 * first minutes.
 */
const JUDGED = ["rssAfterGc", "heapUsed"];
/**
 * Single-use claims live as long as the state they claim and a minute more. With the default 600 s they would all still be held
 * at the end of a 10-minute run, growing by design; with 20 s they expire from the second minute on, and the last half sees their
 * steady state. Short, too, so that the rate of the machine's moment moves the heap little: the claims held are that rate times
 * 80 s. A retry follows its first round at once, well within it.
 */
const STATE_TTL_SECONDS = 20;
/** As `npm start` runs the build, plus a gc() for the memory route, so the heap it reports is live objects only. */
const SERVER_FLAGS = [
  "--no-allocation-site-pretenuring",
  "--expose-gc",
  ...(process.env.SOAK_NODE_FLAGS ?? "").split(/\s+/).filter(Boolean),
];
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};

function headers(method, name) {
  const base = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  return name === undefined ? base : { ...base, "mcp-name": name };
}
const body = (method, params, id = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: { ...META, ...params._meta } } });

/**
 * Each scenario returns the class of its outcome: "ok", "refused:<code>" for an expected refusal, or throws. `connection` is
 * the loop running it: its own counter key (one per connection, so the soak's data stays bounded) and how many full flows
 * have incremented it, since the connection runs one scenario at a time.
 */
const scenarios = {
  async plainCall(url) {
    const response = await fetch(url, {
      method: "POST",
      headers: { ...headers("tools/call", "structured_sum") },
      body: body("tools/call", { name: "structured_sum", arguments: { a: 2, b: 3 } }),
    });
    return expectResult(response, (result) => result.structuredContent?.sum === 5);
  },
  async list(url) {
    const response = await fetch(url, { method: "POST", headers: headers("tools/list"), body: body("tools/list", {}) });
    return expectResult(response, (result) => Array.isArray(result.tools));
  },
  async fullFlow(url, connection) {
    const { key } = connection;
    const params = { name: "confirm_increment", arguments: { key } };
    const first = await fetch(url, {
      method: "POST",
      headers: headers("tools/call", params.name),
      body: body("tools/call", params),
    });
    const round1 = await first.json();
    if (round1.result?.resultType !== "input_required")
      throw new Error(`round 1: ${JSON.stringify(round1).slice(0, 200)}`);
    const retry = {
      ...params,
      inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
      requestState: round1.result.requestState,
    };
    const second = await fetch(url, {
      method: "POST",
      headers: headers("tools/call", params.name),
      body: body("tools/call", retry, 2),
    });
    // Exactly one increment per flow: the claim let the retry through once, and the counter moved by one.
    const expected = connection.flows + 1;
    return expectResult(second, (result) => {
      const count = Number(new RegExp(`^Counter ${key} is now (\\d+)\\.$`).exec(result.content?.[0]?.text)?.[1]);
      if (Number.isInteger(count)) connection.flows = count; // stay in step after a miss, which is reported once
      return count === expected;
    });
  },
  async abandonedStream(url) {
    const controller = new AbortController();
    const params = { name: "progress_steps", arguments: { steps: 20, delay_ms: 50 }, _meta: { progressToken: 1 } };
    const response = await fetch(url, {
      method: "POST",
      headers: headers("tools/call", params.name),
      body: body("tools/call", params),
      signal: controller.signal,
    });
    if (response.status !== 200 || !response.headers.get("content-type")?.startsWith("text/event-stream"))
      throw new Error(`stream: ${response.status}`);
    await response.body.getReader().read();
    controller.abort();
    return "ok";
  },
  async badInput(url) {
    const variants = [
      () => fetch(url, { method: "POST", headers: headers("tools/list"), body: "{not json" }),
      () =>
        fetch(url, {
          method: "POST",
          headers: headers("tools/list"),
          body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":${"[".repeat(5000)}${"]".repeat(5000)}}}`,
        }),
      () =>
        fetch(url, {
          method: "POST",
          headers: { ...headers("tools/call", "nope"), "mcp-method": "tools/list" },
          body: body("tools/call", { name: "nope" }),
        }),
      () =>
        fetch(url, {
          method: "POST",
          headers: headers("tools/call", "confirm_increment"),
          body: body("tools/call", {
            name: "confirm_increment",
            arguments: { key: "k" },
            requestState: "v1.AAAAAAAA.forged",
          }),
        }),
      () => fetch(url, { method: "POST", headers: headers("tools/list"), body: "x".repeat(2 * 1024 * 1024) }),
    ];
    const response = await variants[Math.floor(Math.random() * variants.length)]();
    const text = await response.text();
    if (response.status >= 500) throw new Error(`5xx ${response.status}: ${text.slice(0, 200)}`);
    const code = JSON.parse(text).error?.code;
    if (code === undefined) throw new Error(`bad input accepted: ${text.slice(0, 200)}`);
    return `refused:${code}`;
  },
};
const MIX = [
  "plainCall",
  "plainCall",
  "plainCall",
  "list",
  "list",
  "fullFlow",
  "fullFlow",
  "abandonedStream",
  "badInput",
  "badInput",
];

async function expectResult(response, check) {
  const text = await response.text();
  if (response.status >= 500) throw new Error(`5xx ${response.status}: ${text.slice(0, 200)}`);
  const message = JSON.parse(text);
  if (!message.result || !check(message.result))
    throw new Error(`unexpected answer ${response.status}: ${text.slice(0, 200)}`);
  return "ok";
}

/** The server's resident set size, from /proc (what an operator's dashboard shows), read before the sample's gc(). */
const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;

/** One memory sample: the RSS as it is, then the route's figures after a full garbage collection. */
async function sampleMemory(server, startedAt) {
  const seconds = Math.round((Date.now() - startedAt) / 1000);
  const rss = rssOf(server.pid);
  const { rss: rssAfterGc, ...heap } = await (await fetch(new URL("/_test/memory", server.url))).json();
  return { seconds, rss, rssAfterGc, ...heap };
}

/**
 * The figures whose trend the report gives: the judged ones, then those that say where the RSS grows. External memory is
 * mostly the bodies in flight when the sample is taken (a few MB, or none): its rise is given in MB only.
 */
const TRENDS = [
  { field: "rssAfterGc", name: "RSS after gc", relative: true },
  { field: "heapUsed", name: "heap used after gc", relative: true },
  { field: "rss", name: "RSS as sampled", relative: true },
  { field: "heapTotal", name: "heap total", relative: true },
  { field: "external", name: "external", relative: false },
];
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const percent = (ratio) => `${ratio >= 0 ? "+" : ""}${(ratio * 100).toFixed(1)} %`;

async function main() {
  if (!existsSync(`${OUTPUT.fixtures}/server/index.mjs`)) await buildTarget("fixtures");
  const server = await startServer({
    nodeArgs: SERVER_FLAGS,
    env: {
      NITRO_MCP_STATE_SECRET: "soak-secret-0123456789abcdef0123456789",
      NITRO_MCP_STATE_TTL_SECONDS: String(STATE_TTL_SECONDS),
    },
    keepOutput: false,
  });
  const counts = {};
  const unexpected = [];
  const latencies = [];
  console.log(`[soak] ${DURATION_MS / 1000} s against the server with pid ${server.pid}`);
  const idle = await sampleMemory(server, Date.now());
  const startedAt = Date.now();
  const samples = [];
  // A sample the busy server answered late is not followed by a burst of catching up: the next one waits for its own slot.
  const sampling = (async () => {
    for (let slot = 0; slot * SAMPLE_MS <= DURATION_MS; ) {
      await sleep(startedAt + slot * SAMPLE_MS - Date.now());
      samples.push(await sampleMemory(server, startedAt));
      slot = Math.max(slot + 1, Math.ceil((Date.now() - startedAt) / SAMPLE_MS));
    }
  })();
  try {
    await Promise.all([
      sampling,
      ...Array.from({ length: CONNECTIONS }, async (_, index) => {
        const connection = { key: `soak-${index}`, flows: 0 };
        while (Date.now() - startedAt < DURATION_MS) {
          const scenario = MIX[Math.floor(Math.random() * MIX.length)];
          const begun = performance.now();
          try {
            const outcome = await scenarios[scenario](server.url, connection);
            counts[`${scenario} ${outcome}`] = (counts[`${scenario} ${outcome}`] ?? 0) + 1;
          } catch (error) {
            unexpected.push(`${scenario}: ${error.message}${error.cause?.code ? ` (${error.cause.code})` : ""}`);
          }
          latencies.push(performance.now() - begun);
        }
      }),
    ]);
  } finally {
    await server.stop();
  }
  const fiveXx = unexpected.filter((line) => line.includes("5xx")).length;
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0) + unexpected.length;
  const trends = TRENDS.map((trend) => ({ ...trend, ...lastHalfTrend(samples, trend.field, DURATION_MS / 2000) }));
  const missed = trends.filter(({ field, rise }) => JUDGED.includes(field) && !(rise <= GROWTH_BOUND));
  const lines = [
    RECORD_MARK,
    "# Soak results",
    "",
    `${new Date().toISOString().slice(0, 10)} · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model.trim()} · ${DURATION_MS / 1000} s, ${CONNECTIONS} connections, the fixture build · server flags \`${SERVER_FLAGS.join(" ")}\` · state TTL ${STATE_TTL_SECONDS} s`,
    "",
    `Requests (scenarios): **${total}** · unexpected errors: **${unexpected.length}** · 5xx: **${fiveXx}** · p50 ${percentile(latencies, 50).toFixed(1)} ms · p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    "",
    `Memory over the last half: ${trends
      .filter(({ field }) => JUDGED.includes(field))
      .map(({ name, rise }) => `${name} **${rise === undefined ? "not enough samples" : percent(rise)}**`)
      .join(", ")} (target ≤ ${GROWTH_BOUND * 100} % each${smoke ? "; not judged in smoke mode" : ""})`,
    "",
    "| over the last half, the fitted line (MB) | at its start | at its end | rise | largest sample vs the first |",
    "|---|---|---|---|---|",
    ...trends.map(({ name, relative, from, to, rise, largestVsFirst, seconds }) =>
      rise === undefined
        ? `| ${name} | | | | |`
        : `| ${name} (${seconds[0]}–${seconds[1]} s) | ${mb(from)} | ${mb(to)} | ${mb(to - from)}${relative ? ` (${percent(rise)})` : ""} | ${relative ? percent(largestVsFirst) : ""} |`,
    ),
    "",
    "Every sample (MB): the RSS as the system sees it, then, after a full garbage collection, the RSS again, V8's heap (used,",
    "total), and the memory outside it that V8 knows of (external; array buffers among it). What the RSS holds beyond those is the",
    "process's code, stacks and the allocator's own pages.",
    "",
    "| s | RSS | RSS after gc | heap used | heap total | external | array buffers |",
    "|---|---|---|---|---|---|---|",
    ...[{ ...idle, seconds: "idle" }, ...samples].map(
      (s) =>
        `| ${s.seconds} | ${mb(s.rss)} | ${mb(s.rssAfterGc)} | ${mb(s.heapUsed)} | ${mb(s.heapTotal)} | ${mb(s.external)} | ${mb(s.arrayBuffers)} |`,
    ),
    "",
    "| scenario and outcome | count |",
    "|---|---|",
    ...Object.entries(counts)
      .sort()
      .map(([name, count]) => `| ${name} | ${count} |`),
    ...(unexpected.length ? ["", "Unexpected:", "", ...unexpected.slice(0, 20).map((line) => `- ${line}`)] : []),
  ];
  const report = `${lines.join("\n")}\n`;
  console.log(report);
  if (!smoke) writeFileSync("tests/bench/soak-results.md", report);
  const ok = unexpected.length === 0 && (smoke || missed.length === 0);
  console.log(ok ? "[soak] targets met" : "[soak] targets MISSED");
  process.exit(ok ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
