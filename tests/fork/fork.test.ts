/**
 * The proof that the template is forkable, on copies of the repository, each with the package renamed (`name`,
 * `version`: what clients see as `serverInfo`) and a tool and a test of the forker's own added first (helpers/own-files.mjs),
 * which every removal keeps unchanged and every fork builds with and passes; each fork also runs the walkthroughs its docs
 * kept (tests/e2e/walkthroughs.test.ts) against its own build, and its docs name nothing it removed (helpers/leftovers.mjs):
 *
 * - the examples removed (`npm run features -- remove examples`, as the README's "Fork it" section says): it type-checks,
 *   builds and passes every remaining test, in shuffled order, and those tests still cover the protocol, the transport,
 *   the state and every deploy target;
 * - each other optional part removed alone (a feature, the terminal client, the upkeep): it type-checks, builds for each
 *   target it keeps, and passes the unit tests and the Node target suite with the core's routes and transport;
 * - every part removed (`remove --all`, the minimal fork): the same, plus the official conformance suite's 2026-07-28
 *   scenarios it has fixtures for, in at most MINIMAL_LINES lines of code.
 *
 * The picker type-checks each removal on a copy before it writes it, and exits non-zero (failing the variant) when the
 * result would not compile.
 */
import { execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBenchDependencies } from "../bench/dependencies.mjs";
import { optionalParts } from "../../server/build/dev/optional-parts.mjs";
import { leftoversAfterRemoval } from "../helpers/leftovers.mjs";
import { addOwnFiles, OWN_TEST, ownFilesChanged, ownProductionLines } from "../helpers/own-files.mjs";
import { productionLines } from "../helpers/production-lines.mjs";

const ROOT = process.cwd();
/**
 * The minimal fork's budget, in lines of code (tests/helpers/production-lines.mjs: the formatted tree, no blank lines, no
 * comments, no dev programs): the core with its kit and hooks, the helpers, the memory store and the routes of
 * /mcp. A line the core gains must be paid for with one it loses.
 */
const MINIMAL_LINES = 3500;
const RENAMED = { name: "acme-notes-mcp", version: "3.1.4" };

/** Each optional part but the examples, and the README that holds its removal data (`fork:remove:<name>`). */
const PARTS: Record<string, string> = Object.fromEntries(
  optionalParts(ROOT)
    .filter((part) => part.name !== "examples")
    .map((part) => [part.name, part.readme]),
);

// The benchmark's packages, installed once before the variants (which run side by side) share them.
beforeAll(() => ensureBenchDependencies());

/**
 * A copy of the working tree (tracked and new files, nothing ignored), sharing node_modules (the
 * benchmark's too, so the copy's bench smoke test installs nothing) and the Node 22 cache.
 */
function copyRepository(): string {
  const copy = mkdtempSync(join(tmpdir(), "fork-"));
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file && existsSync(join(ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
  symlinkSync(join(ROOT, "tests/bench/node_modules"), join(copy, "tests/bench/node_modules"));
  mkdirSync(join(ROOT, ".cache"), { recursive: true });
  symlinkSync(join(ROOT, ".cache"), join(copy, ".cache"));
  return copy;
}

type Run = (command: string, args: string[], env?: NodeJS.ProcessEnv) => Promise<string>;

/** Runs a command in `cwd` without blocking (variants run side by side); resolves with its exit status and output, whatever they are. */
function spawnCollecting(
  cwd: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, FORCE_COLOR: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-100_000)));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * A renamed copy holding the forker's own tool and test, with `removed` taken out by the feature picker (`npm run features --
 * remove …`), then `check`ed.
 */
async function inFork(removed: string[], check: (copy: string, run: Run) => Promise<void>): Promise<void> {
  const copy = copyRepository();
  try {
    const pkg = JSON.parse(readFileSync(join(copy, "package.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(copy, "package.json"), `${JSON.stringify({ ...pkg, ...RENAMED }, null, 2)}\n`);
    addOwnFiles(copy);
    const picked = await spawnCollecting(
      copy,
      process.execPath,
      ["server/build/dev/features.mjs", "remove", ...removed],
      {},
    );
    expect(picked.status, `npm run features -- remove ${removed.join(" ")}\n${picked.stdout}\n${picked.stderr}`).toBe(
      0,
    );
    expect(ownFilesChanged(copy), "the forker's own files, after the removal").toEqual([]);
    expect(leftoversAfterRemoval(ROOT, copy, removed), "left behind by the removal").toEqual([]);
    const run: Run = async (command, args, env = {}) => {
      const result = await spawnCollecting(copy, command, args, env);
      expect(
        result.status,
        `${command} ${args.join(" ")}\n${result.stdout.slice(-6000)}\n${result.stderr.slice(-3000)}`,
      ).toBe(0);
      return result.stdout;
    };
    // The picker type-checked the result (on a copy, before writing it) and made Nitro's types for it.
    await check(copy, run);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

interface JsonReport {
  numFailedTests: number;
  numPassedTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { status: string; fullName: string; failureMessages: string[] }[];
  }[];
}

/** What failed in the copy, by test, with the start of each failure message. */
const failuresOf = (report: JsonReport): string[] =>
  report.testResults.flatMap((file) => [
    ...(file.status === "failed" && file.message ? [`${file.name}: ${file.message.slice(0, 800)}`] : []),
    ...file.assertionResults
      .filter((test) => test.status === "failed")
      .map((test) => `${test.fullName}: ${test.failureMessages.join("\n").slice(0, 800)}`),
  ]);

/** How many tests of `file` (a path from the copy's root) passed in `report`. */
const passedIn = (report: JsonReport, file: string): number =>
  report.testResults
    .find((entry) => entry.name.endsWith(`/${file}`))
    ?.assertionResults.filter((test) => test.status === "passed").length ?? 0;

/**
 * Runs the copy's unit and e2e projects (`args`: the files, the order) and expects nothing failed; returns the report. The
 * report says what failed; the exit code, what no test owns (an unhandled error, a failing global setup), which the dot
 * reporter prints.
 */
async function passes(copy: string, args: string[], env: NodeJS.ProcessEnv, context: string): Promise<JsonReport> {
  const reportFile = join(copy, "fork-report.json");
  const run = ["vitest", "run", "-c", "tests/vitest.config.ts", "--project", "unit", "--project", "e2e", ...args];
  const { status, stdout, stderr } = await spawnCollecting(
    copy,
    "npx",
    [...run, "--reporter=dot", "--reporter=json", `--outputFile.json=${reportFile}`],
    env,
  );
  const report = JSON.parse(readFileSync(reportFile, "utf8")) as JsonReport;
  expect(failuresOf(report), `failed in the fork (${context})`).toEqual([]);
  expect(status, `the run in the fork (${context}):\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`).toBe(0);
  // The forker's own test, and the docs' walkthroughs against the fork's product build, ran and passed.
  for (const file of [OWN_TEST, "tests/e2e/walkthroughs.test.ts"])
    expect(passedIn(report, file), file).toBeGreaterThan(0);
  return report;
}

/**
 * Builds for Node (and for Workers when the copy keeps them, printing the Worker's size), then, in one run, the unit
 * tests (the forker's own among them), the docs' walkthroughs and the Node target suite (with the core's routes and
 * transport) on a fixtures build.
 */
async function buildsAndPasses(copy: string, run: Run): Promise<void> {
  await run("npm", ["run", "build"]);
  // with:cloudflare
  // A copy without the cloudflare part has no Workers build.
  if ("build:cloudflare" in JSON.parse(readFileSync(join(copy, "package.json"), "utf8")).scripts) {
    const workerBundle = /\[bundle\] .*/.exec(await run("npm", ["run", "build:cloudflare"]))?.[0] ?? "";
    console.log(`[fork] ${copy}: its Worker ${workerBundle}`);
    expect(existsSync(join(copy, ".output-cloudflare/server/wrangler.json"))).toBe(true);
    expect(JSON.parse(readFileSync(join(copy, ".output-cloudflare/server/wrangler.json"), "utf8")).name).toBe(
      RENAMED.name,
    );
  }
  // end with:cloudflare
  await run("node", ["-e", "import('./tests/helpers/builds.mjs').then((m) => m.buildTarget('fixtures'))"]);
  const targets = [
    "tests/targets/node.test.ts",
    "tests/e2e/routes.test.ts",
    "tests/e2e/transport.test.ts",
    "tests/e2e/walkthroughs.test.ts",
  ];
  await passes(copy, ["tests/unit/", ...targets], { SKIP_BUILD: "1" }, "its unit tests and Node targets");
}

// The variants are independent copies: two at a time (one per core), the longest (the examples') first.
it.concurrent("a fork without the examples builds and passes every remaining test, in any order", async () => {
  await inFork(["examples"], async (copy) => {
    for (const gone of [
      "server/tools/delete_note.ts",
      "server/skills/notes-helper",
      "server/examples",
      "tests/e2e/examples.test.ts",
    ]) {
      expect(existsSync(join(copy, gone)), gone).toBe(false);
    }
    // FORK_SEED=<n> replays an order.
    const seed = Number(process.env.FORK_SEED ?? Math.floor(Math.random() * 1_000_000));
    console.log(`[fork] running the remaining tests in a copy without the examples, shuffled with seed ${seed}`);
    const report = await passes(copy, ["--sequence.shuffle", `--sequence.seed=${seed}`], {}, `seed ${seed}`);
    const files = report.testResults.map((result) => result.name.slice(copy.length + 1));
    console.log(`[fork] ${report.numPassedTests} passed, ${report.numFailedTests} failed, in ${files.length} files`);
    expect(files.filter((file) => /example/.test(file))).toEqual([]);
    for (const covered of [
      "tests/e2e/transport.test.ts",
      "tests/e2e/request-state.test.ts",
      "tests/e2e/mrtr-client.test.ts",
      "tests/e2e/legacy-client.test.ts",
      "tests/targets/node.test.ts",
      "tests/targets/cloudflare.test.ts",
      "tests/targets/vercel.test.ts",
      "tests/targets/redis-instances.test.ts",
      "tests/targets/tasks-node.test.ts",
      "tests/targets/tasks-instances.test.ts",
      "tests/unit/protocol/skills.test.ts",
      "tests/unit/protocol/transport.test.ts",
      "tests/unit/protocol/mrtr.test.ts",
      "tests/e2e/server-card.test.ts",
      "tests/targets/rate-limit.test.ts",
      "tests/e2e/client.test.ts",
      "tests/e2e/client-hostile-server.test.ts",
      "tests/e2e/front-page.test.ts",
      "tests/e2e/observability.test.ts",
      "tests/e2e/log-reader-gone.test.ts",
      "tests/e2e/log-reader-behind.test.ts",
      "tests/conformance/conformance.test.ts",
    ]) {
      expect(passedIn(report, covered), covered).toBeGreaterThan(0);
    }
  });
});

it.concurrent(`the minimal fork (every optional part removed) builds, passes, speaks 2026-07-28 to the conformance suite, in at most ${MINIMAL_LINES} lines`, async () => {
  await inFork(["examples", ...Object.keys(PARTS)], async (copy, run) => {
    expect(existsSync(join(copy, "server/features")) ? readdirSync(join(copy, "server/features")) : []).toEqual([]);
    await buildsAndPasses(copy, run);
    await run("node", ["tests/conformance/run.mjs"]);
    const lines = productionLines(copy) - ownProductionLines();
    console.log(`[fork] the minimal fork: ${lines} lines of code (the forker's own tool left out)`);
    expect(lines).toBeLessThanOrEqual(MINIMAL_LINES);
  });
});

describe("a fork without one optional part", () => {
  it.concurrent.each(Object.keys(PARTS))(
    "without %s: builds and passes its remaining unit and target tests",
    async (name) => {
      await inFork([name], async (copy, run) => {
        expect(existsSync(join(copy, dirname(PARTS[name]!))), name).toBe(false);
        await buildsAndPasses(copy, run);
      });
    },
  );
});
