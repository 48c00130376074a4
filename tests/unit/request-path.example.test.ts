/**
 * How many project files the template's single-use `tools/call` retry passes through, measured on `delete_note` itself (at
 * most 25), with V8's precise coverage in the in-process server.
 *
 * The count, precisely: the production files (tests/helpers/production-lines.mjs: `server/`, `routes/`, `utils/`,
 * `nitro.config.ts`) in which at least one function runs between the retry's request and its response, in each of two
 * retries: a function of the file itself, or the getter through which the in-process runner reads one of the file's
 * exports (so a module whose value the request uses counts, even a barrel). Loading a module does not count: the first
 * round, which loads everything lazily, runs before the counters are reset. The server is the template as it ships (every
 * definition, every optional feature on its defaults: the request log on), on in-memory storage; the retry confirms the
 * deletion: its state is opened and claimed, the note deleted, the change announced on the bus.
 */
import { Session } from "node:inspector/promises";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestServer } from "../helpers/in-process";
import { productionFiles } from "../helpers/production-lines.mjs";
import { ELICITATION } from "./protocol/flows";

/** delete_note's confirmation, accepted. */
const CONFIRM_DELETE = { confirm: { action: "accept", content: { confirm: true } } };

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

it(`delete_note's confirmed retry runs code in at most ${MAX_FILES} project files`, async () => {
  const server = await createTestServer();
  const client = server.connect({ capabilities: ELICITATION });
  // A first flow loads what a server loads once (a store's module, a lazily built table): the measure is a warm retry's.
  const warm = { name: "delete_note", arguments: { note_id: "12" } };
  const asked = await client.request("tools/call", warm);
  await client.request("tools/call", {
    ...warm,
    inputResponses: CONFIRM_DELETE,
    requestState: asked.body.result.requestState,
  });
  // Two retries, each measured alone, and only the files both ran count: the coverage is the whole process's, so code a
  // test file before this one left running (a timer, a store's reconnect) may run in one window, not in both.
  const runs: string[][] = [];
  for (const note of ["7", "15"]) {
    const call = { name: "delete_note", arguments: { note_id: note } };
    const first = await client.request("tools/call", call);
    expect(first.body.result?.resultType, JSON.stringify(first.body)).toBe("input_required");
    await filesRun();
    const retry = await client.request("tools/call", {
      ...call,
      inputResponses: CONFIRM_DELETE,
      requestState: first.body.result.requestState,
    });
    runs.push(await filesRun());
    expect(retry.body.result?.content?.[0]?.text).toMatch(new RegExp(`^Deleted note ${note}`));
  }
  const files = runs[0]!.filter((file) => runs[1]!.includes(file));
  // The measure sees the request path, or it would pass for nothing.
  expect(files).toEqual(
    expect.arrayContaining([
      "server/mcp/read-request.ts",
      "server/mcp/state/request-state.ts",
      "server/mcp/http/respond.ts",
      "utils/define-tool.ts",
      "server/tools/delete_note.ts",
    ]),
  );
  console.log(
    `[request path] delete_note's retry runs code in ${files.length} project files:\n  ${files.join("\n  ")}`,
  );
  expect(files.length, files.join("\n")).toBeLessThanOrEqual(MAX_FILES);
});
