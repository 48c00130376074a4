#!/usr/bin/env node
/**
 * `npm run conformance`: the official MCP conformance suite against the conformance build.
 *
 *  1. builds the conformance build (the core with tests/conformance/fixtures alone),
 *  2. starts it on 127.0.0.1 and a free port,
 *  3. makes the runs this checkout gets (runs.mjs): `--requirements 2026-07-28` and `--suite all --spec-version
 *     2026-07-28` for the core, and what the optional parts still here add (their extension scenarios, each on its own;
 *     the older revisions they serve, against the exclusions justified in expected-failures.<revision>.yaml), with a
 *     Node 22 binary fetched from the npm registry,
 *  4. stops the server, prints the suite's summaries and a verdict,
 *  5. exits non-zero on any FAILURE or WARNING in a scenario it ran; a scenario the suite skips is reported as such, with
 *     the suite's reason.
 *
 * A fork runs only the scenarios of the parts it kept, so a removed feature prints no failure.
 *
 * Flags: --no-build (reuse the last build), --only=<run> (requirements, all, extensions or a revision, e.g. 2025-11-25).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildTarget } from "../helpers/builds.mjs";
import { MODERN_NODE, nodeBinary } from "../helpers/node-binary.mjs";
import { OUTPUT, startServer } from "../helpers/server.mjs";
import { conformanceRuns, REVISION } from "./runs.mjs";

const ROOT = new URL("../..", import.meta.url).pathname;
const RUNS_DIR = join(ROOT, "tests", ".runs");
const CLI = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const args = new Set(process.argv.slice(2));
const only = [...args].find((arg) => arg.startsWith("--only="))?.slice("--only=".length);

/** The scenarios a baseline file lists as expected failures (`server:` entries). */
const expectedFailures = (baseline) =>
  new Set([...readFileSync(join(ROOT, baseline), "utf8").matchAll(/^\s+-\s+([\w.-]+)\s*$/gm)].map((match) => match[1]));

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

/**
 * Per scenario: FAILURE, WARNING and SUCCESS counts, and the suite's reason when it skipped the scenario, read from the
 * suite's own checks.json files.
 */
function tally(outputDir) {
  const scenarios = new Map();
  for (const entry of existsSync(outputDir) ? readdirSync(outputDir) : []) {
    const match = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(entry);
    const file = join(outputDir, entry, "checks.json");
    if (!match || !existsSync(file)) continue;
    const checks = JSON.parse(readFileSync(file, "utf8"));
    const count = (status) => checks.filter((check) => check.status === status).length;
    const skipped = checks.find((check) => check.status === "SKIPPED");
    scenarios.set(match[1], {
      failures: count("FAILURE"),
      warnings: count("WARNING"),
      successes: count("SUCCESS"),
      skipped: skipped && (skipped.errorMessage ?? "").replace(/^Skipped: /, "").split(/\.\s/)[0],
    });
  }
  return scenarios;
}

const isClean = (counts) => counts.failures === 0 && counts.warnings === 0;

async function main() {
  if (!args.has("--no-build")) await buildTarget("conformance");
  const node = Number(process.versions.node.split(".")[0]) >= 22 ? process.execPath : nodeBinary(MODERN_NODE, ROOT);
  const { runs, required, leftOut } = conformanceRuns(ROOT);
  const server = await startServer({ output: join(ROOT, OUTPUT.conformance) });
  const verdicts = [];
  try {
    for (const spec of runs.filter((spec) => !only || spec.name === only)) {
      const outputDir = join(RUNS_DIR, spec.name);
      rmSync(outputDir, { recursive: true, force: true });
      let code = 0;
      for (const flags of spec.invocations) {
        console.log(`\n[conformance] ${flags.join(" ")}`);
        code ||= (await run(node, flags, server.url, outputDir)).code;
      }
      const excluded = spec.baseline ? expectedFailures(spec.baseline) : new Set();
      const scenarios = [...tally(outputDir)];
      const skipped = scenarios.filter(([, counts]) => counts.skipped);
      const gated = scenarios.filter(([name, counts]) => !counts.skipped && !excluded.has(name));
      verdicts.push({ spec, code, gated, skipped, bad: gated.filter(([, counts]) => !isClean(counts)) });
    }
  } finally {
    await server.stop();
  }

  console.log("\n[conformance] verdict");
  let ok = true;
  for (const { spec, code, gated, skipped, bad } of verdicts) {
    const warnings = gated.reduce((sum, [, counts]) => sum + counts.warnings, 0);
    const informational = gated.filter(([, counts]) => counts.successes === 0).map(([name]) => name);
    console.log(
      `  ${spec.invocations.map((flags) => flags.join(" ")).join(", ")}: ${gated.length - bad.length}/${gated.length} scenarios clean, ${warnings} warnings, exit ${code}`,
    );
    if (informational.length)
      console.log(`    (clean but only informational checks, not applicable here: ${informational.join(", ")})`);
    for (const [name, counts] of bad)
      console.log(`    ✗ ${name}: ${counts.failures} failures, ${counts.warnings} warnings`);
    for (const [name, counts] of skipped) console.log(`    (skipped by the suite: ${name}: ${counts.skipped})`);
    ok &&= code === 0 && bad.length === 0 && gated.length > 0;
  }
  if (leftOut.length > 0 && !only) {
    // The requirement set's scenarios, without the extensions no part implements, are among the other runs'.
    const clean = new Set(
      verdicts.flatMap(({ gated }) => gated.filter(([, counts]) => isClean(counts))).map(([n]) => n),
    );
    const missing = required.filter((scenario) => !clean.has(scenario));
    console.log(
      `  --requirements ${REVISION}: not run whole, as no part of this checkout implements its extension scenarios ${leftOut.join(", ")}; its ${required.length} required scenarios: ${required.length - missing.length}/${required.length} clean in the runs above`,
    );
    for (const scenario of missing) console.log(`    ✗ ${scenario}: not clean in any run`);
    ok &&= missing.length === 0;
  }
  console.log(ok ? "[conformance] PASS" : "[conformance] FAIL");
  process.exit(ok ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
