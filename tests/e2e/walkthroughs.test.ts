/**
 * Every walkthrough the docs of this checkout hold (bash blocks marked `walkthrough`: the README's curl session, the core's
 * rounds by hand, a feature's), run verbatim against the product build (only the address changes), in the order a reader
 * follows them: each command answers as its doc shows (`walkthroughs` and `answerDifferences`, tests/helpers/docs.ts). In a
 * fork, the walkthroughs its removals kept run against what it kept: none may call what is gone (an unknown tool is an error
 * its doc does not show).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { answerDifferences, walkthroughs } from "../helpers/docs";
import { needs, programPath } from "../helpers/programs.mjs";
import { OUTPUT, startServer, type RunningServer } from "../helpers/server.mjs";

const MARK = "@@walkthrough";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ output: OUTPUT.product });
});
afterAll(() => server.stop());

// The tasks walkthrough waits for a task that works for several seconds: a bound on "ever", not a speed.
it("runs every walkthrough in the docs, each command answering as its doc shows", {
  ...needs("curl"),
  timeout: 180_000,
}, () => {
  programPath("curl"); // under CI, a missing curl fails here, saying how to install it
  const blocks = walkthroughs();
  expect(blocks.map((block) => block.file)).toContain("README.md");
  const script = blocks
    .map((block, index) => `printf '${MARK} ${index}\\n'\n${block.script}`)
    .join("\n")
    .replaceAll("http://127.0.0.1:3000/mcp", server.url);
  const run = spawnSync("bash", ["-e", "-c", script], {
    cwd: mkdtempSync(join(tmpdir(), "walkthrough-")),
    encoding: "utf8",
    timeout: 170_000,
  });
  const printed: string[][] = [];
  for (const line of run.stdout.split("\n").filter(Boolean)) {
    if (line.startsWith(`${MARK} `)) printed.push([]);
    else printed.at(-1)?.push(line);
  }
  expect(run.status, `the walkthroughs stopped:\n${run.stdout}\n${run.stderr}`).toBe(0);
  expect(printed).toHaveLength(blocks.length);
  blocks.forEach((block, index) => {
    const lines = printed[index]!;
    expect(lines, `${block.file}, walkthrough ${index}: one answer per line its doc shows`).toHaveLength(
      block.answers.length,
    );
    const differences = block.answers.flatMap((shown, line) =>
      answerDifferences(shown, lines[line]!).map((difference) => `answer ${line + 1}: ${difference}\n  ${lines[line]}`),
    );
    expect(differences, `${block.file}, walkthrough ${index}`).toEqual([]);
  });
});
