/**
 * The in-process client stopped at a question and the retry made by hand, exactly as tests/README.md ("In-process")
 * shows it: the example runs here, and its block in the README is this file's, line for line.
 */
import { ok as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { isInputRequiredResult } from "@modelcontextprotocol/client";
import { expect, it } from "vitest";
import { createTestClient } from "../helpers/in-process";

/** The lines between `// <name>:start` and `// <name>:end` in `text`, without their common indentation. */
function region(text: string, start: RegExp, end: RegExp): string[] {
  const lines = text.split("\n");
  const from = lines.findIndex((line) => start.test(line));
  const to = lines.findIndex((line, index) => index > from && end.test(line));
  if (from < 0 || to < 0) throw new Error(`no region ${start}…${end}`);
  const body = lines.slice(from + 1, to);
  const indent = Math.min(...body.filter(Boolean).map((line) => /^ */.exec(line)![0].length));
  return body.map((line) => line.slice(indent));
}

it("stops at the question, then retries by hand with the answer and the state", async () => {
  // stopped-round:start
  const client = await createTestClient({
    definitions: ["tests/fixtures/tools/confirm_increment.ts"],
    capabilities: { elicitation: { form: {} } },
  });
  const asked = await client.callTool("confirm_increment", { key: "doc" }, { stopAtInputRequired: true });
  assert(isInputRequiredResult(asked)); // the SDK's guard: CallToolResult | InputRequiredResult narrowed to the round
  expect(asked.inputRequests?.confirm).toMatchObject({ method: "elicitation/create", params: { mode: "form" } });
  const result = await client.call("tools/call", {
    name: "confirm_increment",
    arguments: { key: "doc" },
    inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
    requestState: asked.requestState, // sealed by the server: sent back as it came
  });
  expect(result.content).toEqual([{ type: "text", text: "Counter doc is now 1." }]);
  // stopped-round:end
});

it("is the example tests/README.md shows", () => {
  const own = region(
    readFileSync(new URL(import.meta.url), "utf8"),
    /\/\/ stopped-round:start/,
    /\/\/ stopped-round:end/,
  );
  const shown = region(
    readFileSync("tests/README.md", "utf8"),
    /<!-- stopped-round:start -->/,
    /<!-- stopped-round:end -->/,
  );
  expect(shown).toEqual(["```ts", ...own, "```"]);
});
