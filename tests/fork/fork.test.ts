/**
 * The proof that the template is forkable: a copy of the repository with the examples deleted
 * (by the commands in the README's "Fork it" section, run verbatim) type-checks, builds and passes
 * every remaining test, in shuffled order, and those tests still cover the protocol, the transport,
 * the state and every deploy target.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { ensureBenchDependencies } from "../bench/dependencies.mjs";
import { docBlock } from "../helpers/docs";

const ROOT = process.cwd();

/** The README's commands that remove the examples, between `<!-- fork:remove:examples:start -->` and `:end -->`. */
const forkCommands = (): string => docBlock("README.md", "fork:remove:examples", ROOT);

/**
 * A copy of the working tree (tracked and new files, nothing ignored), sharing node_modules (the
 * benchmark's too, installed here first if need be, so the copy's bench smoke test installs nothing)
 * and the Node 22 cache.
 */
function copyRepository(): string {
  const copy = mkdtempSync(join(tmpdir(), "fork-"));
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter((file) => file && existsSync(join(ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
  ensureBenchDependencies();
  symlinkSync(join(ROOT, "tests/bench/node_modules"), join(copy, "tests/bench/node_modules"));
  mkdirSync(join(ROOT, ".cache"), { recursive: true });
  symlinkSync(join(ROOT, ".cache"), join(copy, ".cache"));
  return copy;
}

interface JsonReport {
  numFailedTests: number;
  numPassedTests: number;
  testResults: { name: string; status: string; message?: string; assertionResults: { status: string; fullName: string; failureMessages: string[] }[] }[];
}

/** What failed in the copy, by test, with the start of each failure message. */
const failuresOf = (report: JsonReport): string[] =>
  report.testResults.flatMap((file) => [
    ...(file.status === "failed" && file.message ? [`${file.name}: ${file.message.slice(0, 800)}`] : []),
    ...file.assertionResults.filter((test) => test.status === "failed").map((test) => `${test.fullName}: ${test.failureMessages.join("\n").slice(0, 800)}`),
  ]);

it("a fork without the examples builds and passes every remaining test, in any order", () => {
  const copy = copyRepository();
  try {
    execFileSync("bash", ["-e", "-c", forkCommands()], { cwd: copy, stdio: "inherit" });
    for (const gone of ["server/tools/delete_note.ts", "server/skills/notes-helper", "server/examples", "tests/e2e/examples.test.ts", "tests/e2e/readme-example.test.ts"]) {
      expect(existsSync(join(copy, gone)), gone).toBe(false);
    }

    const run = (command: string, args: string[]) => {
      const result = spawnSync(command, args, { cwd: copy, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0" }, maxBuffer: 256 * 1024 * 1024 });
      expect(result.status, `${command} ${args.join(" ")}\n${result.stdout.slice(-6000)}\n${result.stderr.slice(-3000)}`).toBe(0);
      return result.stdout;
    };
    run("npx", ["nitropack", "prepare"]);
    run("npx", ["tsc", "--noEmit"]);
    // FORK_SEED=<n> replays an order.
    const seed = Number(process.env.FORK_SEED ?? Math.floor(Math.random() * 1_000_000));
    console.log(`[fork] running the remaining tests in a copy without the examples, shuffled with seed ${seed}`);
    const reportFile = join(copy, "fork-report.json");
    // The run's exit code is judged by the report below, which says what failed.
    spawnSync("npx", ["vitest", "run", "-c", "tests/vitest.config.ts", "--project", "unit", "--project", "e2e", "--sequence.shuffle", `--sequence.seed=${seed}`, "--reporter=json", `--outputFile.json=${reportFile}`], {
      cwd: copy,
      env: { ...process.env, FORCE_COLOR: "0" },
      stdio: "ignore",
    });

    const report = JSON.parse(readFileSync(reportFile, "utf8")) as JsonReport;
    const files = report.testResults.map((result) => result.name.slice(copy.length + 1));
    console.log(`[fork] ${report.numPassedTests} passed, ${report.numFailedTests} failed, in ${files.length} files`);
    expect(failuresOf(report), `failed in the fork (seed ${seed})`).toEqual([]);
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
      "tests/e2e/skills.test.ts",
      "tests/e2e/client.test.ts",
      "tests/e2e/client-hostile-server.test.ts",
      "tests/e2e/front-page.test.ts",
      "tests/e2e/observability.test.ts",
      "tests/e2e/log-reader-gone.test.ts",
      "tests/conformance/conformance.test.ts",
    ]) {
      const result = report.testResults.find((entry) => entry.name.endsWith(covered));
      expect(result?.assertionResults.filter((test) => test.status === "passed").length ?? 0, covered).toBeGreaterThan(0);
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
