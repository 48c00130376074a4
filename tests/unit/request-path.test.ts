/**
 * How many project files a `tools/call` retry of a single-use tool passes through (issue 19: at most 25), measured on
 * the in-process server with V8's precise coverage.
 *
 * The count, precisely: the production files (tests/helpers/production-lines.mjs: `server/`, `routes/`, `utils/`,
 * `nitro.config.ts`; the test fixtures aside) in which at least one function runs between the retry's request and its
 * response: a function of the file itself, or the getter through which the in-process runner reads one of the file's
 * exports (so a module whose value the request uses counts, even a barrel). Loading a module does not count: the first
 * round, which loads everything lazily, runs before the counters are reset. The server is the fixture server with every
 * optional feature this checkout has, on their defaults (the request log on, a rate limit on a fixture tool), in-memory
 * storage; the tool is `confirm_increment` (single use: the retry's state is opened and claimed).
 */
import { Session } from "node:inspector/promises";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestServer } from "../helpers/in-process";
import { productionFiles } from "../helpers/production-lines.mjs";
import { askToIncrement, FIXTURES, retryIncrement, uniqueKey } from "./protocol/flows";

const MAX_FILES = 25;
const ROOT = process.cwd();
const session = new Session();

beforeAll(async () => {
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
});
afterAll(async () => {
  await session.post("Profiler.stopPreciseCoverage");
  session.disconnect();
});

/** The production files with a function that ran since the last call (taking the coverage resets the counters). */
async function filesRun(): Promise<string[]> {
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const production = new Set(productionFiles(ROOT));
  const ran = new Set<string>();
  for (const script of result) {
    if (!script.url.startsWith("file://")) continue;
    const file = relative(ROOT, fileURLToPath(script.url.split("?")[0]!));
    if (production.has(file) && script.functions.some((fn) => fn.ranges[0]!.count > 0)) ran.add(file);
  }
  return [...ran].sort();
}

it(`a tools/call retry of a single-use tool runs code in at most ${MAX_FILES} project files`, async () => {
  const server = await createTestServer(FIXTURES);
  const client = server.connect();
  const key = uniqueKey();
  const state = await askToIncrement(client, key);
  await filesRun();
  const retry = await retryIncrement(client, key, state);
  const files = await filesRun();
  expect(retry.body.result?.content?.[0]?.text).toBe(`Counter ${key} is now 1.`);
  // The measure sees the request path, or it would pass for nothing.
  expect(files).toEqual(
    expect.arrayContaining([
      "routes/mcp.post.ts",
      "server/mcp/read-request.ts",
      "server/mcp/state/request-state.ts",
      "utils/define-tool.ts",
    ]),
  );
  console.log(`[request path] a tools/call retry runs code in ${files.length} project files:\n  ${files.join("\n  ")}`);
  expect(files.length, files.join("\n")).toBeLessThanOrEqual(MAX_FILES);
});
