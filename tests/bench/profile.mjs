#!/usr/bin/env node
/**
 * `node tests/bench/profile.mjs [call|retry] [seconds]`: where the CPU of one request goes in this template's Node build
 * under load (32 connections, the bench's flags), part by part, and for tools/call beside the JSON-RPC floor's under the
 * same load: the profile of `node --cpu-prof`, each sample's function mapped through the build's source maps to the
 * project module or library it came from. Main thread only (the GC's helper threads are not in it). For the retry round, another instance with the same secret issues the states,
 * so the profiled one only opens, claims and answers.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BENCH_BUILDS, buildTarget } from "../helpers/builds.mjs";
import { startServer } from "../helpers/server.mjs";
import { ensureBenchDependencies } from "./dependencies.mjs";
import { JSONRPC_FLOOR_PATH, PROCESS_FLAGS, scenarios } from "./scenarios.mjs";

const env = { NITRO_MCP_STATE_SECRET: "bench-secret-0123456789abcdef0123456789" };

/** Maps a function of a build back to its source through the build's source map (one map read per file). */
function sourceMapper() {
  const maps = new Map();
  return (url, line, column) => {
    if (!maps.has(url)) {
      const path = fileURLToPath(url);
      maps.set(url, existsSync(`${path}.map`) ? new SourceMap(JSON.parse(readFileSync(`${path}.map`, "utf8"))) : null);
    }
    return maps.get(url)?.findEntry(line, column)?.originalSource ?? url;
  };
}

/** The part a sample's function belongs to (undefined: idle). */
function partOf({ functionName, url, lineNumber, columnNumber }, sourceOf) {
  if (!url) {
    if (functionName === "(idle)") return undefined;
    if (functionName === "(garbage collector)") return "garbage collection (main thread)";
    if (/^(writev|writeBuffer|writeUtf8String|writeLatin1String)$/.test(functionName))
      return "socket writes (the kernel's loopback TCP)";
    return "V8 and Node native code (microtasks, promise jobs, C++)";
  }
  if (/^node:(internal\/)?crypto/.test(url)) return "Node: crypto objects (AES-GCM)";
  if (url.startsWith("node:")) return "Node: HTTP parser and server, streams, events, timers";
  const source = sourceOf(url, lineNumber, columnNumber);
  const library = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (library) return `library: ${library[1]}`;
  // An optional feature by its name, not its folder: a fork that removes it keeps no path to it in results.md.
  const feature = /server\/features\/([^/]+)/.exec(source);
  if (feature) return `feature: ${feature[1]}`;
  if (source.includes("tests/bench/contenders/")) return "the JSON-RPC floor's route";
  const own = /(server\/mcp\/(?:[^/]+\/)?[^/]+\.ts|server\/[^/]+|utils\/[^/]+|routes\/[^/]+|tests\/[^/]+\/[^/]+)/.exec(
    source,
  );
  return own ? `template: ${own[1]}` : "other";
}

/** What can be profiled: the template's bench build, or the JSON-RPC floor (run.mjs's contenders of the same keys). */
const PROFILED = {
  template: { build: "bench", path: "/mcp" },
  "jsonrpc-floor": { build: "nitro-floor", path: JSONRPC_FLOOR_PATH },
};

/** The output folder of `build` (a key of BENCH_BUILDS), built first when it is not there. */
async function builtOutput(build) {
  const { output } = BENCH_BUILDS[build];
  if (!existsSync(`${output}/server/index.mjs`)) await buildTarget(build);
  return output;
}

/** `scenario` on `url` for `seconds` under `load` (autocannon, 32 connections); throws on any non-2xx answer or error. */
async function underLoad(load, url, scenario, seconds, contender = "template") {
  const requests = scenario.requests(url, contender);
  const result = await load({ url, method: "POST", connections: 32, requests, duration: seconds });
  if (result.non2xx || result.errors)
    throw new Error(`${scenario.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result;
}

/**
 * Runs `scenario.prepare` for the template (the states its retries present) on an instance of the build in `output` of its own,
 * started with `env` (the secret the measured one has) and stopped after: the measured server then only opens, claims and answers.
 */
export async function prepareOnAnotherInstance(scenario, output, env) {
  const issuer = await startServer({ output, env, keepOutput: false, nodeArgs: PROCESS_FLAGS });
  try {
    await scenario.prepare(issuer.url, "template");
  } finally {
    await issuer.stop();
  }
}

/**
 * Profiles `scenario` (one of scenarios.mjs) on `contender` (a key of PROFILED) for `seconds` under autocannon (`load`):
 * its main-thread CPU per request, and each part's, largest first.
 */
export async function profileSplit(scenario, seconds, load, contender = "template") {
  const { build, path } = PROFILED[contender];
  const output = await builtOutput(build);
  if (scenario.prepare && contender === "template") await prepareOnAnotherInstance(scenario, output, env);

  const profiles = mkdtempSync(join(tmpdir(), "mcp-profile-"));
  const flags = [...PROCESS_FLAGS, "--cpu-prof", `--cpu-prof-dir=${profiles}`, "--cpu-prof-interval=100"];
  const server = await startServer({ output, env, keepOutput: false, nodeArgs: flags });
  let result;
  try {
    result = await underLoad(load, server.url.replace(/\/mcp$/, path), scenario, seconds, contender);
  } finally {
    await server.stop(); // the profile is written as the process exits
  }

  const profile = JSON.parse(readFileSync(join(profiles, readdirSync(profiles)[0]), "utf8"));
  rmSync(profiles, { recursive: true, force: true });
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const sourceOf = sourceMapper();
  const parts = new Map();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const part = partOf(nodes.get(id).callFrame, sourceOf);
    if (!part) return;
    busy += profile.timeDeltas[index] ?? 0;
    parts.set(part, (parts.get(part) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const requests = result.requests.total;
  return {
    scenario: scenario.name,
    perSecond: requests / seconds,
    microsPerRequest: busy / requests,
    parts: [...parts]
      .sort((a, b) => b[1] - a[1])
      .map(([part, micros]) => ({ part, micros: micros / requests, share: micros / busy })),
  };
}

/**
 * A scavenge's `promoted` bytes in a `--trace-gc-nvp` line, in either form V8 prints: name=value pairs
 * (` gc=s … promoted=123 `, Node 24 and older) or a JSON object (`GC: {…"gc":"s",…"promoted":123,…}`, Node 26).
 */
const SCAVENGE_PROMOTED = /[ "]gc(?:=|":")s[ "].*?[ "]promoted(?:=|":)(\d+)/g;

/**
 * The bytes V8 promotes to its old generation per HTTP request of `scenario` (a scenario with no `prepare`) on the template's
 * Node build under load (`load`, autocannon), after a second of warm-up: the `promoted` of every scavenge that
 * `--trace-gc-nvp` reports in the measured seconds, over the requests answered. What a request allocates should die young,
 * where a scavenge frees it for almost nothing; an object still reachable at two scavenges is copied to the old generation
 * and waits there for a full collection, and a request path that leaves some per request (a hidden class of its own, a
 * timer holding it) multiplies the time spent collecting.
 */
export async function promotedPerRequest(scenario, seconds, load) {
  const output = await builtOutput("bench");
  const server = await startServer({ output, env, nodeArgs: [...PROCESS_FLAGS, "--trace-gc-nvp"] });
  try {
    await underLoad(load, server.url, scenario, 1);
    const before = server.rawLogs().length;
    const result = await underLoad(load, server.url, scenario, seconds);
    const scavenges = [...server.rawLogs().slice(before).matchAll(SCAVENGE_PROMOTED)];
    // None read is a format this parser does not know (another Node), not a request that leaves nothing behind.
    if (scavenges.length === 0) throw new Error(`${scenario.name}: no scavenge reported by --trace-gc-nvp`);
    return scavenges.reduce((sum, [, bytes]) => sum + Number(bytes), 0) / result.requests.total;
  } finally {
    await server.stop();
  }
}

/** The split as a markdown table (parts under 0.05 µs left out); with `floor`, the floor's µs for each part beside it. */
export function splitTable({ parts }, floor) {
  const floorOf = new Map(floor?.parts.map(({ part, micros }) => [part, micros]));
  const cells = (part, micros) =>
    floor ? ` ${(floorOf.get(part) ?? 0).toFixed(2)} | ${(micros - (floorOf.get(part) ?? 0)).toFixed(2)} |` : "";
  const extra = floor
    ? [...floorOf].filter(([part, micros]) => micros >= 0.05 && !parts.some((own) => own.part === part))
    : [];
  return [
    `| part | µs a request | share |${floor ? " JSON-RPC floor, µs | difference, µs |" : ""}`,
    `|---|---|---|${floor ? "---|---|" : ""}`,
    ...parts
      .filter(({ micros }) => micros >= 0.05)
      .map(
        ({ part, micros, share }) =>
          `| ${part} | ${micros.toFixed(2)} | ${(100 * share).toFixed(1)} % |${cells(part, micros)}`,
      ),
    ...extra.map(([part, micros]) => `| ${part} | 0.00 | 0.0 % | ${micros.toFixed(2)} | ${(-micros).toFixed(2)} |`),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureBenchDependencies();
  const { default: autocannon } = await import("autocannon");
  const which = process.argv[2] === "retry" ? "retry" : "call";
  const seconds = Number(process.argv[3] ?? 8);
  const scenario = scenarios({ smoke: false, durationSeconds: seconds }).find((entry) =>
    which === "retry" ? entry.name.startsWith("MRTR retry") : entry.name === "tools/call (text)",
  );
  const split = await profileSplit(scenario, seconds, autocannon);
  // tools/call beside the JSON-RPC floor under the same load: the difference, part by part, is what the template adds.
  const floor = which === "call" ? await profileSplit(scenario, seconds, autocannon, "jsonrpc-floor") : undefined;
  const line = (of) =>
    `${Math.round(of.perSecond).toLocaleString("en-US")} req/s under the profiler, ${of.microsPerRequest.toFixed(1)} µs of main-thread CPU a request`;
  console.log(`${split.scenario}: ${line(split)}${floor ? `; the JSON-RPC floor: ${line(floor)}` : ""}\n`);
  console.log(splitTable(split, floor).join("\n"));
}
