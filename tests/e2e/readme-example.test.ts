/**
 * The docs' curl walkthroughs of the examples, run verbatim (only the port changes) against the product build: the
 * README's first (it defines `mcp` and `$META`), then the core's and the tasks', in the order a reader follows them.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { docBlocks } from "../helpers/docs";
import { needs, programPath } from "../helpers/programs.mjs";
import { OUTPUT, startServer, type RunningServer } from "../helpers/server.mjs";
import { hasFeature } from "../helpers/project.mjs";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ output: OUTPUT.product });
});
afterAll(() => server.stop());

const WALKTHROUGHS = [
  "README.md",
  "server/mcp/README.md",
  ...(hasFeature("tasks") ? ["server/features/tasks/README.md"] : []),
];

function walkthroughScript(): string {
  const blocks = WALKTHROUGHS.map((file) => docBlocks(file, "walkthrough"));
  for (const [index, found] of blocks.entries()) expect(found.length, WALKTHROUGHS[index]).toBeGreaterThanOrEqual(1);
  return blocks.flat().join("\n");
}

it("runs the docs' curl walkthroughs with the documented results", needs("curl"), () => {
  programPath("curl"); // under CI, a missing curl fails here, saying how to install it
  const script = walkthroughScript().replaceAll("http://127.0.0.1:3000/mcp", server.url);
  const output = execFileSync("bash", ["-e", "-c", script], {
    cwd: mkdtempSync(join(tmpdir(), "walkthrough-")),
    encoding: "utf8",
  });
  const lines = output.split("\n").filter(Boolean);
  const expected = [
    hasFeature("legacy")
      ? /"supportedVersions":\["2026-07-28","2025-11-25","2025-06-18","2025-03-26"\]/
      : /"supportedVersions":\["2026-07-28"\]/,
    /"text":"Bonjour, Ada!"/,
    /"resultType":"input_required".*"confirm":\{"method":"elicitation\/create"/,
    /"text":"Deleted note 7 \(\\"Groceries\\"\)\."/,
    /"error":\{"code":-32602,"message":"Invalid or expired requestState"\}/,
    /"text":"Kept note 12 \(\\"Conference talk\\"\): the person chose decline\."/,
    /"error":\{"code":-32602,"message":"Invalid or expired requestState"\}/,
    /"code":-32020,"message":"Header mismatch: Mcp-Param-Locale .*HTTP 400$/,
  ];
  // The tasks feature's walkthrough (absent from a fork without it).
  const tasks = [
    /"status":"working".*"resultType":"task"/,
    /"status":"working"/,
    /"status":"input_required".*"inputRequests":\{"texts\.1":\{"method":"elicitation\/create"/,
    /^\{"jsonrpc":"2\.0","id":22,"result":\{"resultType":"complete"/,
    /"status":"completed".*"text":"# Notes\\n\\n## Conference talk \(#12\)\\n\\n.*fern/,
    /^\{"jsonrpc":"2\.0","id":24,"result":\{"resultType":"complete"/,
    /"status":"cancelled","statusMessage":"Cancelled by the client"/,
  ];
  if (hasFeature("tasks")) expected.push(...tasks);
  expect(lines).toHaveLength(expected.length);
  lines.forEach((line, index) => {
    expect(line).toMatch(expected[index]!);
  });
});
