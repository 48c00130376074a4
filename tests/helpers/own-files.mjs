/**
 * A forker's own tool and its in-process test, as someone who forks the template writes them before removing parts (the
 * README's "Write your own tool" and its test): the fork proof adds them to every fork first, and each removal must keep them
 * as they are, build with them, and pass their test. The tool asks before it acts, so asking is carried through every fork.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { codeLines } from "./production-lines.mjs";

/** The own files, by path from the root. */
export const OWN_FILES = {
  "server/tools/my_tool.ts": `import { z } from "zod";

const Confirm = defineForm({ confirm: z.boolean().describe("Go ahead?") });

export default defineTool({
  name: "my_tool",
  description: "Acts on an id once the person confirms.",
  input: { id: z.string() },
  run({ id }, mcp) {
    const ask = { confirm: elicitForm(\`Act on \${id}?\`, Confirm) };
    const { confirm } = readInputResponses(mcp, ask);
    if (!confirm) return inputRequired(mcp, ask);
    return confirm.action === "accept" && confirm.content.confirm ? \`Done with \${id}.\` : \`Left \${id} alone.\`;
  },
});
`,
  "tests/unit/my-tool.test.ts": `import { expect, it } from "vitest";
import { createTestClient } from "../helpers/in-process";

it("asks, then acts", async () => {
  const client = await createTestClient({
    definitions: ["server/tools/my_tool.ts"],
    capabilities: { elicitation: { form: {} } },
  });
  const accept = { confirm: { action: "accept", content: { confirm: true } } } as const;
  const done = await client.callTool("my_tool", { id: "42" }, { answers: accept });
  expect(done.content).toEqual([{ type: "text", text: "Done with 42." }]);
  const left = await client.callTool("my_tool", { id: "42" }, { answers: "decline" });
  expect(left.content).toEqual([{ type: "text", text: "Left 42 alone." }]);
});
`,
};

/** The own test file (its result must be among a fork's passed tests). */
export const OWN_TEST = "tests/unit/my-tool.test.ts";

/** Writes the own files into the checkout at `root`. */
export function addOwnFiles(root) {
  for (const [file, text] of Object.entries(OWN_FILES)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
}

/** The own files that are missing from `root` or changed there (empty when every one is as written). */
export const ownFilesChanged = (root) =>
  Object.entries(OWN_FILES)
    .filter(([file, text]) => {
      try {
        return readFileSync(join(root, file), "utf8") !== text;
      } catch {
        return true;
      }
    })
    .map(([file]) => file);

/** The production lines the own files add (a fork's line budget counts the template's, not the forker's). */
export const ownProductionLines = () => codeLines(OWN_FILES["server/tools/my_tool.ts"]);
