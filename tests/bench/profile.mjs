#!/usr/bin/env node
/**
 * `node tests/bench/profile.mjs [call|retry] [seconds]`: where the CPU of one request goes in this template's Node build
 * under load (32 connections, the bench's flags), part by part: the profile of `node --cpu-prof`, each sample's
 * function mapped through the build's source maps to the project module or library it came from. Main thread only (the
 * GC's helper threads are not in it). For the retry round, another instance with the same secret issues the states,
 * so the profiled one only opens, claims and answers.
 */
import { mkdtempSync, readdirSync, readFileSync, existsSync } from "node:fs";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildTarget } from "../helpers/builds.mjs";
import { startServer } from "../helpers/server.mjs";
import { ensureBenchDependencies } from "./dependencies.mjs";
import { PROCESS_FLAGS, scenarios } from "./scenarios.mjs";

ensureBenchDependencies();
const { default: autocannon } = await import("autocannon");
const which = process.argv[2] === "retry" ? "retry" : "call";
const seconds = Number(process.argv[3] ?? 8);
const env = { NITRO_MCP_STATE_SECRET: "bench-secret-0123456789abcdef0123456789" };
if (!existsSync(".output-bench/server/index.mjs")) await buildTarget("bench");

const scenario = scenarios({ smoke: false, durationSeconds: seconds }).find((entry) =>
  which === "retry" ? entry.name.startsWith("MRTR retry") : entry.name === "tools/call (text)",
);
const issuer = which === "retry" ? await startServer({ output: ".output-bench", env, keepOutput: false }) : undefined;
if (issuer) await scenario.prepare(issuer.url, "template");
await issuer?.stop();

const profiles = mkdtempSync(join(tmpdir(), "mcp-profile-"));
const flags = [...PROCESS_FLAGS, "--cpu-prof", `--cpu-prof-dir=${profiles}`, "--cpu-prof-interval=100"];
const server = await startServer({ output: ".output-bench", env, keepOutput: false, nodeArgs: flags });
const load = await autocannon({ url: server.url, method: "POST", connections: 32, requests: scenario.requests(server.url, "template"), duration: seconds });
await server.stop();
if (load.non2xx || load.errors) throw new Error(`${load.non2xx} non-2xx answers, ${load.errors} errors`);

const [file] = readdirSync(profiles);
const profile = JSON.parse(readFileSync(join(profiles, file), "utf8"));
const maps = new Map();
function sourceOf(url, line, column) {
  if (!maps.has(url)) {
    const path = fileURLToPath(url);
    maps.set(url, existsSync(`${path}.map`) ? new SourceMap(JSON.parse(readFileSync(`${path}.map`, "utf8"))) : null);
  }
  return maps.get(url)?.findEntry(line, column)?.originalSource ?? url;
}

/** The part a sample's function belongs to. */
function partOf({ functionName, url, lineNumber, columnNumber }) {
  if (!url) {
    if (functionName === "(idle)") return undefined;
    if (functionName === "(garbage collector)") return "garbage collection (main thread)";
    if (/^(writev|writeBuffer|writeUtf8String|writeLatin1String)$/.test(functionName)) return "socket writes (the kernel's loopback TCP)";
    return "V8 and Node native code (microtasks, promise jobs, C++)";
  }
  if (/^node:(internal\/)?crypto/.test(url)) return "Node: crypto objects (AES-GCM)";
  if (url.startsWith("node:")) return "Node: HTTP parser and server, streams, events, timers";
  const source = sourceOf(url, lineNumber, columnNumber);
  const library = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (library) return `library: ${library[1]}`;
  const own = /(server\/features\/[^/]+|server\/mcp\/(?:[^/]+\/)?[^/]+\.ts|server\/[^/]+|utils\/[^/]+|routes\/[^/]+|tests\/[^/]+\/[^/]+)/.exec(source);
  return own ? `template: ${own[1]}` : "other";
}

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parts = new Map();
let busy = 0;
profile.samples.forEach((id, index) => {
  const part = partOf(nodes.get(id).callFrame);
  if (!part) return;
  const micros = profile.timeDeltas[index] ?? 0;
  busy += micros;
  parts.set(part, (parts.get(part) ?? 0) + micros);
});
const requests = load.requests.total;
console.log(`${scenario.name}: ${Math.round(requests / seconds).toLocaleString("en-US")} req/s under the profiler, ${(busy / requests).toFixed(1)} µs of main-thread CPU a request\n`);
console.log("| part | µs a request | share |", "\n|---|---|---|");
for (const [part, micros] of [...parts].sort((a, b) => b[1] - a[1])) {
  if (micros / requests < 0.05) continue;
  console.log(`| ${part} | ${(micros / requests).toFixed(2)} | ${((100 * micros) / busy).toFixed(1)} % |`);
}
