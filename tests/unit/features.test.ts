/**
 * `npm run features` itself, run as a forker runs it, in a copy of the checkout that holds a tool and a test of the
 * forker's own: removing the examples, then every optional part, keeps them, and each removal is type-checked first
 * (the picker exits non-zero and changes nothing when the result would not compile). Each run type-checks a copy, so
 * this file takes a minute or more; the removal data itself is checked part by part in removal.test.ts.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sourceFiles } from "../helpers/leftovers.mjs";

const ROOT = process.cwd();
const OWN = {
  "server/tools/my_tool.ts": `import { z } from "zod";

export default defineTool({
  name: "my_tool",
  description: "Echoes an id.",
  input: { id: z.string() },
  run: ({ id }) => \`Done with \${id}.\`,
});
`,
  "tests/unit/my-tool.test.ts": `import { expect, it } from "vitest";
import { createTestClient } from "../helpers/in-process";

it("answers", async () => {
  const client = await createTestClient({ definitions: ["server/tools/my_tool.ts"] });
  const result = await client.callTool("my_tool", { id: "42" });
  expect(result.content).toEqual([{ type: "text", text: "Done with 42." }]);
});
`,
};

let copy = "";

/** Runs `npm run features -- …args` in the copy (as node runs it: npm adds nothing); its exit code and what it printed. */
function features(...args: string[]): Promise<{ code: number; printed: string }> {
  const script = join(copy, "server/build/dev/features.mjs");
  return new Promise((resolve) =>
    execFile(process.execPath, [script, ...args], { cwd: copy, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: typeof error?.code === "number" ? error.code : 0, printed: stdout + stderr }),
    ),
  );
}

const present = (path: string) => existsSync(join(copy, path));

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), "features-test-"));
  for (const file of sourceFiles(ROOT)) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
  for (const [file, text] of Object.entries(OWN)) writeFileSync(join(copy, file), text);
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

// Each removal makes Nitro's types and runs tsc on a copy: tens of seconds, minutes on a loaded machine.
describe("npm run features, in a fork with a tool and a test of its own", { timeout: 600_000 }, () => {
  it("lists the optional parts with what each costs", async () => {
    const { code, printed } = await features();
    expect(code).toBe(0);
    expect(printed).toMatch(/^ {2}[ ⚠] examples +\d+ lines {2}\S/m);
    expect(printed).toMatch(/^ {2}⚠ legacy +\d+ lines/m);
    expect(printed).toMatch(/^ {2}[ ⚠] upkeep +\d+ lines/m);
  });

  it("refuses a removal that would not type-check, and changes nothing", async () => {
    const uses = "server/tools/uses_notes.ts";
    writeFileSync(
      join(copy, uses),
      'import { listNotes } from "../examples/notes";\n\nexport const count = async () => (await listNotes()).length;\n',
    );
    const readme = readFileSync(join(copy, "README.md"), "utf8");
    try {
      const { code, printed } = await features("remove", "examples");
      expect(code, printed).toBe(1);
      expect(printed).toContain("Nothing was changed");
      expect(printed).toMatch(/server\/tools\/uses_notes\.ts\(\d+,\d+\): error TS/);
      expect(present("server/tools/greet.ts")).toBe(true);
      expect(readFileSync(join(copy, "README.md"), "utf8")).toBe(readme);
    } finally {
      rmSync(join(copy, uses));
    }
  });

  it("removes the examples by their names, keeping the fork's own tool and test", async () => {
    const dryRun = await features("remove", "examples", "--dry-run");
    expect(dryRun.code).toBe(0);
    expect(dryRun.printed).toContain("server/tools/greet.ts");
    expect(dryRun.printed).not.toContain("my_tool");
    expect(present("server/tools/greet.ts"), "a dry run changes nothing").toBe(true);

    const { code, printed } = await features("remove", "examples");
    expect(code, printed).toBe(0);
    expect(printed).toContain("Removed examples.");
    expect(present("server/tools/greet.ts")).toBe(false);
    expect(present("server/examples")).toBe(false);
    for (const file of Object.keys(OWN))
      expect(readFileSync(join(copy, file), "utf8")).toBe(OWN[file as keyof typeof OWN]);

    const again = await features("remove", "examples");
    expect(again.code).toBe(0);
    expect(again.printed).toContain("Nothing to remove");
  });

  it("removes every other part, keeping the fork's own tool and test", async () => {
    const { code, printed } = await features("remove", "--all");
    expect(code, printed).toBe(0);
    expect(printed).toMatch(/⚠ legacy: /);
    expect(present("server/features")).toBe(false);
    expect(present("server/dev")).toBe(false);
    expect(present("tests/bench")).toBe(false);
    for (const file of Object.keys(OWN))
      expect(readFileSync(join(copy, file), "utf8")).toBe(OWN[file as keyof typeof OWN]);
    expect((await features()).printed).toContain("No optional part is left");
  });
});
