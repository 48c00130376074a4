#!/usr/bin/env node
/**
 * `npm run conformance`: the official MCP conformance suite against the conformance build.
 *
 *  1. builds the conformance build (the core with tests/conformance/fixtures alone),
 *  2. starts it on 127.0.0.1 and a free port,
 *  3. runs `--requirements 2026-07-28` and `--suite all --spec-version 2026-07-28`
 *     with a Node 22 binary fetched from the npm registry, then the 2025-era clients'
 *     run, `--suite all --spec-version 2025-11-25`, against the exclusions justified in
 *     expected-failures.2025-11-25.yaml,
 *  4. stops the server, prints the suite's summaries and a verdict,
 *  5. exits non-zero on any FAILURE or WARNING, the extensions' scenarios included (tasks-* in the
 *     requirements run, sep-2640-* on their own); a scenario the suite always skips is reported as such.
 *
 * A fork without an optional feature (server/features/) skips the runs of that feature: the skills extension's
 * scenarios, the 2025-era run.
 *
 * Flags: --no-build (reuse the last build), --only=requirements|all|skills-extension|legacy-2025-11-25.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildTarget } from "../helpers/builds.mjs";
import { MODERN_NODE, nodeBinary } from "../helpers/node-binary.mjs";
import { hasFeature } from "../helpers/project.mjs";
import { OUTPUT, startServer } from "../helpers/server.mjs";

const ROOT = new URL("../..", import.meta.url).pathname;
const RUNS_DIR = join(ROOT, "tests", ".runs");
const CLI = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const args = new Set(process.argv.slice(2));
const only = [...args].find((arg) => arg.startsWith("--only="))?.slice("--only=".length);

const LEGACY_BASELINE = join(ROOT, "tests", "conformance", "expected-failures.2025-11-25.yaml");
const legacyExclusions = new Set(
  [...readFileSync(LEGACY_BASELINE, "utf8").matchAll(/^\s+-\s+([\w.-]+)\s*$/gm)].map((match) => match[1]),
);

/**
 * Scenarios the suite runs but can only skip, with its reason: they are reported as skipped, not gated.
 * (A scenario with no SUCCESS and no FAILURE is what the suite's SKIPPED looks like in checks.json.)
 */
const ALWAYS_SKIPPED = {
  "tasks-status-notifications": "the suite's harness does not test task notifications yet (it reports SKIPPED)",
};

/** The skills extension's scenarios: not in any 2026-07-28 suite, so each runs on its own (at 2026-07-28). */
const SKILLS_SCENARIOS = ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"];

/**
 * Scenario runs; `gate` says which scenarios must be free of FAILURE and WARNING. `--requirements`
 * includes the tasks extension's scenarios (not scored by the suite, gated here); a run with
 * `scenarios` calls the suite once per scenario.
 */
const RUNS = [
  // Without the tasks feature (a fork), the tasks extension's scenarios are reported, not gated.
  {
    name: "requirements",
    flags: ["--requirements", "2026-07-28"],
    gate: (scenario) => !(scenario in ALWAYS_SKIPPED) && (hasFeature("tasks") || !scenario.startsWith("tasks-")),
  },
  { name: "all", flags: ["--suite", "all", "--spec-version", "2026-07-28"], gate: () => true },
  { name: "skills-extension", feature: "skills", scenarios: SKILLS_SCENARIOS, flags: [], gate: () => true },
  {
    name: "legacy-2025-11-25",
    feature: "legacy",
    flags: ["--suite", "all", "--spec-version", "2025-11-25", "--expected-failures", LEGACY_BASELINE],
    gate: (scenario) => !legacyExclusions.has(scenario),
  },
];

function run(node, flags, url, outputDir) {
  return new Promise((resolve) => {
    const child = spawn(node, [CLI, "server", "--url", url, ...flags, "-o", outputDir], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.once("exit", (code) => resolve({ code, output }));
  });
}

/** Per scenario: FAILURE and WARNING counts, read from the suite's own checks.json files. */
function tally(outputDir) {
  const scenarios = new Map();
  for (const entry of existsSync(outputDir) ? readdirSync(outputDir) : []) {
    const match = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(entry);
    const file = join(outputDir, entry, "checks.json");
    if (!match || !existsSync(file)) continue;
    const checks = JSON.parse(readFileSync(file, "utf8"));
    const count = (status) => checks.filter((check) => check.status === status).length;
    scenarios.set(match[1], { failures: count("FAILURE"), warnings: count("WARNING"), successes: count("SUCCESS") });
  }
  return scenarios;
}

async function main() {
  if (!args.has("--no-build")) await buildTarget("conformance");
  const node = Number(process.versions.node.split(".")[0]) >= 22 ? process.execPath : nodeBinary(MODERN_NODE, ROOT);
  const server = await startServer({ output: join(ROOT, OUTPUT.conformance) });
  const verdicts = [];
  try {
    for (const spec of RUNS.filter(
      (spec) => (!only || spec.name === only) && (!spec.feature || hasFeature(spec.feature)),
    )) {
      const outputDir = join(RUNS_DIR, spec.name);
      rmSync(outputDir, { recursive: true, force: true });
      let code = 0;
      for (const flags of spec.scenarios ? spec.scenarios.map((scenario) => ["--scenario", scenario]) : [spec.flags]) {
        console.log(`\n[conformance] ${flags.join(" ")}`);
        code ||= (await run(node, flags, server.url, outputDir)).code;
      }
      const scenarios = tally(outputDir);
      const gated = [...scenarios].filter(([name]) => spec.gate(name));
      const bad = gated.filter(([, counts]) => counts.failures > 0 || counts.warnings > 0);
      const reported = [...scenarios].filter(([name]) => !spec.gate(name));
      verdicts.push({ spec, code, gated, bad, reported });
    }
  } finally {
    await server.stop();
  }

  console.log("\n[conformance] verdict");
  let ok = true;
  for (const { spec, code, gated, bad, reported } of verdicts) {
    const warnings = gated.reduce((sum, [, counts]) => sum + counts.warnings, 0);
    const informational = gated.filter(([, counts]) => counts.successes === 0).map(([name]) => name);
    const flags = spec.scenarios
      ? spec.scenarios.map((scenario) => `--scenario ${scenario}`).join(", ")
      : spec.flags.map((flag) => flag.replace(ROOT, "")).join(" ");
    console.log(
      `  ${flags}: ${gated.length - bad.length}/${gated.length} scenarios clean, ${warnings} warnings, exit ${code}`,
    );
    if (informational.length)
      console.log(`    (clean but only informational checks, not applicable here: ${informational.join(", ")})`);
    for (const [name, counts] of bad)
      console.log(`    ✗ ${name}: ${counts.failures} failures, ${counts.warnings} warnings`);
    const skipped = reported.filter(([name]) => name in ALWAYS_SKIPPED);
    for (const [name, counts] of skipped) {
      const status = counts.successes || counts.failures || counts.warnings ? "ran" : "skipped";
      console.log(`    (${status}: ${name}: ${ALWAYS_SKIPPED[name]})`);
    }
    const others = reported.filter(([name]) => !(name in ALWAYS_SKIPPED));
    if (others.length) {
      const passing = others.filter(([, counts]) => counts.failures === 0 && counts.successes > 0).length;
      console.log(`    (not gated: ${passing}/${others.length} pass: ${others.map(([name]) => name).join(", ")})`);
    }
    ok &&= code === 0 && bad.length === 0 && gated.length > 0;
  }
  console.log(ok ? "[conformance] PASS" : "[conformance] FAIL");
  process.exit(ok ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
