#!/usr/bin/env node
/**
 * `npm run soak`: 60 s of mixed traffic at 64 concurrent connections against the node build with
 * the test fixtures: plain calls, lists, full MRTR flows, abandoned SSE streams and bad inputs.
 * Prints requests, errors by class, p50/p99, and the server's RSS at start, middle and end.
 *
 * Targets: no unexpected error, no 5xx, RSS at the end within 10% of the middle. Exits non-zero
 * when one is missed. Writes tests/bench/soak-results.md (not in smoke mode).
 *
 *   npm run soak                                   60 s
 *   node tests/bench/soak.mjs --smoke              5 s (npm test runs this)
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { buildTarget } from "../helpers/builds.mjs";
import { OUTPUT, startServer } from "../helpers/server.mjs";

const smoke = process.argv.includes("--smoke");
const DURATION_MS = (smoke ? 5 : Number(process.env.SOAK_SECONDS ?? 60)) * 1000;
const CONNECTIONS = 64;
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

/** Each scenario returns the class of its outcome: "ok", "refused:<code>" for an expected refusal, or throws. */
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
  async fullFlow(url) {
    const key = `soak-${crypto.randomUUID()}`;
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
    return expectResult(second, (result) => result.content?.[0]?.text === `Counter ${key} is now 1.`);
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

/** The server's resident set size, from /proc (what an operator's dashboard shows). */
const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  if (!existsSync(`${OUTPUT.fixtures}/server/index.mjs`)) await buildTarget("fixtures");
  const server = await startServer({
    env: { NITRO_MCP_STATE_SECRET: "soak-secret-0123456789abcdef0123456789" },
    keepOutput: false,
  });
  const counts = {};
  const unexpected = [];
  const latencies = [];
  const rss = { start: rssOf(server.pid) };
  const started = Date.now();
  const middle = setTimeout(() => (rss.middle = rssOf(server.pid)), DURATION_MS / 2);
  try {
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() - started < DURATION_MS) {
          const scenario = MIX[Math.floor(Math.random() * MIX.length)];
          const begun = performance.now();
          try {
            const outcome = await scenarios[scenario](server.url);
            counts[`${scenario} ${outcome}`] = (counts[`${scenario} ${outcome}`] ?? 0) + 1;
          } catch (error) {
            unexpected.push(`${scenario}: ${error.message}`);
          }
          latencies.push(performance.now() - begun);
        }
      }),
    );
    // Let abandoned streams wind down before the last reading.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rss.end = rssOf(server.pid);
  } finally {
    clearTimeout(middle);
    await server.stop();
  }
  const fiveXx = unexpected.filter((line) => line.includes("5xx")).length;
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0) + unexpected.length;
  const growth = rss.middle ? rss.end / rss.middle - 1 : 0;
  const lines = [
    "# Soak results",
    "",
    `${new Date().toISOString().slice(0, 10)} · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model.trim()} · ${DURATION_MS / 1000} s, ${CONNECTIONS} connections, the fixture build`,
    "",
    `Requests (scenarios): **${total}** · unexpected errors: **${unexpected.length}** · 5xx: **${fiveXx}** · p50 ${percentile(latencies, 50).toFixed(1)} ms · p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    "",
    `RSS: start ${mb(rss.start)} · middle ${mb(rss.middle ?? 0)} · end ${mb(rss.end)} (end vs middle: ${(growth * 100).toFixed(1)}%, target ≤ 10%)`,
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
  const ok = unexpected.length === 0 && (smoke || growth <= 0.1);
  console.log(ok ? "[soak] targets met" : "[soak] targets MISSED");
  process.exit(ok ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
