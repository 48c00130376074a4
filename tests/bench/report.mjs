/**
 * The benchmark's report (markdown): the figures per scenario and contender, a summary with the
 * template's ratio to each, the targets with what was measured, the micro-benchmarks, cold start
 * and bundle sizes.
 */
import { cpus } from "node:os";
import { RECORD_MARK } from "../helpers/leftovers.mjs";
import { splitTable } from "./profile.mjs";

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const fmt = (value, digits = 0) =>
  value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const spread = (values, digits = 0) =>
  `${fmt(median(values), digits)} (${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)})`;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const ratio = (value) => `${fmt(value, 2)}×`;
const cpuCell = (slot) => (slot.cpu.length ? spread(slot.cpu, 1) : "–");
/** The median server CPU a request of `slot`, undefined where it was not read (no /proc). */
const cpuOf = (slot) => (slot.cpu.length ? median(slot.cpu) : undefined);
/** `show(value)`, and beside it the same comparison by each other measure that was taken (`{ CPU: …, instructions: … }`). */
const alongside = (show, others) => (value) => {
  const taken = Object.entries(others).filter(([, other]) => other !== undefined && !Number.isNaN(other));
  return taken.length
    ? `${show(value)} (${taken.map(([by, other]) => `by ${by}: ${show(other)}`).join(", ")})`
    : show(value);
};

const TOOLS_CALL = "tools/call (text)";
const RETRY = "MRTR retry round (confirm, decline)";
const SEAL_OPEN_NODE = /^seal \+ open \(this template, node:crypto/;

/** The targets of the performance work: what each compares, the bound, and the measured value. */
function targets(run) {
  const { measured, costs, micro, promoted, coldStartMs, appDocuments } = run;
  const rps = (scenario, contender) => median(measured[scenario][contender].rps);
  // The same comparisons by server CPU a request: A's ratio to B is B's CPU over A's (less CPU, more requests a second).
  const cpu = (scenario, contender) => cpuOf(measured[scenario][contender]);
  const byCpu = (a, b) => (a === undefined || b === undefined ? undefined : b / a);
  const sealOpen = Object.entries(micro).find(([name]) => SEAL_OPEN_NODE.test(name))?.[1] ?? NaN;
  const logCost = 1 - median(costs.deployed.rps) / median(costs["log-off"].rps);
  const logCostByCpu = byCpu(cpuOf(costs.deployed), cpuOf(costs["log-off"]));
  // By instructions a request (instructions.mjs), where they were counted: the same ratios, a steadier measure.
  const { instructions = {} } = run;
  const byInstructions = (a, b) => byCpu(instructions[a], instructions[b]);
  const logCostByInstructions = byInstructions("deployed", "log-off");
  return [
    [
      "`tools/call` ÷ the JSON-RPC floor (req/s)",
      "≥ 0.85×",
      rps(TOOLS_CALL, "template") / rps(TOOLS_CALL, "jsonrpc-floor"),
      (v) => v >= 0.85,
      alongside(ratio, {
        CPU: byCpu(cpu(TOOLS_CALL, "template"), cpu(TOOLS_CALL, "jsonrpc-floor")),
        instructions: byInstructions("deployed", "jsonrpc-floor"),
      }),
    ],
    [
      "`tools/call` ÷ the Nitro floor (req/s)",
      "≥ 0.90×",
      rps(TOOLS_CALL, "template") / rps(TOOLS_CALL, "nitro-floor"),
      (v) => v >= 0.9,
      alongside(ratio, { CPU: byCpu(cpu(TOOLS_CALL, "template"), cpu(TOOLS_CALL, "nitro-floor")) }),
    ],
    [
      "MRTR retry round ÷ the template's own `tools/call` (req/s)",
      "≥ 0.75×",
      rps(RETRY, "template") / rps(TOOLS_CALL, "template"),
      (v) => v >= 0.75,
      alongside(ratio, {
        CPU: byCpu(cpu(RETRY, "template"), cpu(TOOLS_CALL, "template")),
        instructions: byInstructions("retry", "deployed"),
      }),
    ],
    [
      "the request log's cost: `tools/call` req/s lost with it on",
      "≤ 5 %",
      logCost * 100,
      (v) => v <= 5,
      alongside((v) => `${fmt(v, 1)} %`, {
        CPU: logCostByCpu === undefined ? undefined : (1 - logCostByCpu) * 100,
        instructions: logCostByInstructions === undefined ? undefined : (1 - logCostByInstructions) * 100,
      }),
    ],
    ...Object.entries(promoted).map(([scenario, bytes]) => [
      `${scenario}: bytes V8 promotes to its old generation per request (\`--trace-gc-nvp\`)`,
      "≤ 1,024",
      bytes,
      (v) => v <= 1024,
      (v) => fmt(v),
    ]),
    ["seal + open of a state on Node (median)", "≤ 30 µs", sealOpen, (v) => v <= 30, (v) => `${fmt(v, 1)} µs`],
    [
      "cold start of the Node build (the examples and their apps included) to its first answer",
      "≤ 250 ms",
      coldStartMs,
      (v) => v <= 250,
      (v) => `${fmt(v)} ms`,
    ],
    // with:cloudflare
    ...workerTargets(run),
    // end with:cloudflare
    ...appDocuments.map(({ uri, gzip }) => kbTarget(`the MCP Apps document \`${uri}\`, gzip`, 200, gzip)),
  ].map(
    ([name, bound, value, met, show]) =>
      `| ${name} | ${bound} | ${show(value)} | ${met(value) ? "met" : "**missed**"} |`,
  );
}

/** A size target in KB gzip. */
const kbTarget = (name, bound, bytes) => [
  name,
  `≤ ${bound} KB`,
  bytes / 1024,
  (v) => v <= bound,
  (v) => `${fmt(v, 1)} KB`,
];

// with:cloudflare
/** The Worker's bounds: 100 KB gzip without MCP Apps; with the feature and its example apps, 300 KB. */
function workerTargets({ workerBundle, workerWithoutApps, appsFeature }) {
  if (!appsFeature) return [kbTarget("the Worker, gzip", 100, workerBundle.gzip)];
  return [
    kbTarget("the Worker with MCP Apps and the example apps, gzip", 300, workerBundle.gzip),
    ...(workerWithoutApps ? [kbTarget("the Worker without the apps feature, gzip", 100, workerWithoutApps.gzip)] : []),
  ];
}
// end with:cloudflare

/** The instructions a tools/call costs, each server beside the template as deployed; then the template's retry round. */
function instructionsSection({ retry, ...instructions }) {
  const LABELS = {
    deployed: "this template, as deployed",
    "log-off": "this template, its request log off",
    "jsonrpc-floor": "JSON-RPC floor: parse, check, answer with the id",
  };
  const template = instructions.deployed;
  return [
    "## Instructions a request",
    "",
    "`tools/call (text)` counted by valgrind's callgrind (`tests/bench/instructions.mjs`): every instruction the server runs for one warm request, in every thread, V8's compilers left out. What else the machine does moves it by a few percent at most, so it shows a change that requests a second cannot; it counts no cache miss or system call, and under valgrind the log's time, cached for a millisecond, is formatted for nearly every request.",
    "",
    "| server | instructions a request | the template's ratio to it |",
    "|---|---|---|",
    ...Object.entries(instructions).map(
      ([name, count]) => `| ${LABELS[name]} | ${fmt(count)} | ${name === "deployed" ? "" : ratio(count / template)} |`,
    ),
    ...(retry === undefined
      ? []
      : [
          "",
          `The MRTR retry round, the template as deployed (its states issued beforehand by another instance): ${fmt(retry)} instructions a request, ${ratio(template / retry)} as fast as its \`tools/call\` by this count.`,
        ]),
  ];
}

export function renderReport(run) {
  const { settings, contenders, measured, costs, splits, micro, coldStartMs, nodeBundle, appDocuments } = run;
  const lines = [];
  const cpu = cpus();
  lines.push(RECORD_MARK, "# Benchmark results", "");
  lines.push(
    `${new Date().toISOString().slice(0, 10)} · Node ${process.version} · ${cpu.length} × ${cpu[0]?.model.trim()} · ` +
      `${settings.repeats} repeat(s) of ${settings.smoke ? "300 requests" : `${settings.durationSeconds} s`} per scenario and contender, interleaved, every repeat on fresh processes${settings.warmUpSeconds ? ` warmed for ${settings.warmUpSeconds} s` : ""}, ` +
      `${settings.connections} connections (autocannon on the same machine), every server with \`${settings.processFlags.join(" ")}\` (tests/bench/README.md); ` +
      `latency: ${settings.latencySamples} sequential requests, µs`,
    "",
  );
  if (settings.smoke)
    lines.push(
      "**Smoke mode: 300 requests per run, too few for meaningful figures. It only proves the script works.**",
      "",
    );

  lines.push("## Summary: requests per second, and the template's ratio to each", "");
  lines.push(
    `| scenario | ${contenders.map((contender) => contender.label).join(" | ")} |`,
    `|---|${contenders.map(() => "---").join("|")}|`,
  );
  for (const [name, byContender] of Object.entries(measured)) {
    const template = median(byContender.template.rps);
    const cells = contenders.map(({ key }) => {
      const value = median(byContender[key].rps);
      return key === "template" ? `**${fmt(value)}**` : `${fmt(value)} (${ratio(template / value)})`;
    });
    lines.push(`| ${name} | ${cells.join(" | ")} |`);
  }
  lines.push("", "A ratio above 1× means the template is faster; the three floors do no MCP work at all.", "");

  lines.push("## Targets", "", "| target | bound | measured | |", "|---|---|---|---|");
  lines.push(...targets(run), "");

  lines.push("## Every figure", "", "Medians over the repeats, with min–max.", "");
  lines.push(
    "| scenario | contender | req/s | server CPU µs a request | p50 µs | p99 µs |",
    "|---|---|---|---|---|---|",
  );
  for (const [name, byContender] of Object.entries(measured)) {
    for (const [index, contender] of contenders.entries()) {
      const slot = byContender[contender.key];
      lines.push(
        `| ${index === 0 ? name : ""} | ${contender.label} | ${spread(slot.rps)} | ${cpuCell(slot)} | ${spread(slot.p50)} | ${spread(slot.p99)} |`,
      );
    }
  }

  lines.push(
    "",
    "## What the request log and the rate limit cost",
    "",
    "The template's `tools/call (text)` as deployed (request log on, no rate limit), against the same call with one thing changed (each in a process of its own, warmed alike): its request log off, or a global rate limit set (never reached: only the counting is measured). Cost per request: the difference in time per request at full load (1 / req/s), in the server's CPU a request, and in median latency; a negative cost is what turning the thing on costs.",
    "",
  );
  lines.push(
    "| variant | req/s | server CPU µs a request | p50 µs | p99 µs | cost per request at load, µs | CPU difference, µs | p50 difference, µs |",
    "|---|---|---|---|---|---|---|---|",
  );
  const deployed = costs.deployed;
  const LABELS = {
    deployed: "as deployed",
    "log-off": "request log off",
    memory: "rate limit, counted in memory",
    redis: "rate limit, counted on Redis (same machine)",
  };
  for (const [variant, slot] of Object.entries(costs)) {
    const cost = variant === "deployed" ? "" : fmt(1e6 / median(slot.rps) - 1e6 / median(deployed.rps), 1);
    const p50 = variant === "deployed" ? "" : fmt(median(slot.p50) - median(deployed.p50), 0);
    const cpu = cpuOf(slot);
    const cpuCost =
      variant === "deployed" || cpu === undefined || cpuOf(deployed) === undefined ? "" : fmt(cpu - cpuOf(deployed), 1);
    lines.push(
      `| ${LABELS[variant]} | ${spread(slot.rps)} | ${cpuCell(slot)} | ${spread(slot.p50)} | ${spread(slot.p99)} | ${cost} | ${cpuCost} | ${p50} |`,
    );
  }

  if (run.instructions) lines.push("", ...instructionsSection(run.instructions));

  lines.push(
    "",
    "## Where a request's CPU goes",
    "",
    "The template's Node build alone under the same load, `node --cpu-prof` (`tests/bench/profile.mjs`): each sample's function mapped through the build's source maps to its module or library; for tools/call, the JSON-RPC floor profiled the same way beside it, so the difference column is what the template costs more, part by part. Main thread only; the profiler slows it a little.",
  );
  const underProfiler = (split) =>
    `${fmt(split.microsPerRequest, 1)} µs of main-thread CPU a request (${fmt(split.perSecond)} req/s under the profiler)`;
  for (const split of splits) {
    const floor = split.floor
      ? `; the JSON-RPC floor under the same load, ${underProfiler(split.floor)}, beside it part by part`
      : "";
    lines.push("", `**${split.scenario}**: ${underProfiler(split)}${floor}`, "", ...splitTable(split, split.floor));
  }

  lines.push(
    "",
    "## Micro-benchmarks",
    "",
    "In process, median of batches.",
    "",
    "| operation | µs per operation |",
    "|---|---|",
  );
  for (const [name, value] of Object.entries(micro)) lines.push(`| ${name} | ${fmt(value, 2)} |`);
  lines.push(
    "",
    `Cold start of the Node build (process start → first successful tools/call, median of ${settings.coldStarts}): **${fmt(coldStartMs)} ms**`,
    "",
  );
  lines.push("| bundle | files | raw | gzip |", "|---|---|---|---|");
  lines.push(
    `| Node (.output-bench/server, without node_modules) | ${nodeBundle.files} | ${kb(nodeBundle.raw)} | ${kb(nodeBundle.gzip)} |`,
  );
  // with:cloudflare
  const { workerBundle, workerWithoutApps } = run;
  lines.push(
    `| Cloudflare Worker (.output-cloudflare/server) | ${workerBundle.files} | ${kb(workerBundle.raw)} | ${kb(workerBundle.gzip)} |`,
  );
  if (workerWithoutApps)
    lines.push(
      `| Cloudflare Worker without the apps feature (\`npm run features -- remove apps\`) | ${workerWithoutApps.files} | ${kb(workerWithoutApps.raw)} | ${kb(workerWithoutApps.gzip)} |`,
    );
  // end with:cloudflare
  for (const { uri, raw, gzip } of appDocuments)
    lines.push(`| MCP Apps document \`${uri}\` | 1 | ${kb(raw)} | ${kb(gzip)} |`);
  return `${lines.join("\n")}\n`;
}
