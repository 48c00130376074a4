/**
 * `npm run features` itself, run as a forker runs it, in a copy of the checkout that holds a tool and a test of the
 * forker's own: removing the examples, then every optional part, keeps them, and each removal is type-checked first
 * (the picker exits non-zero and changes nothing when the result would not compile); an example the fork rewrote is
 * kept, and said so. Each run type-checks a copy, so
 * this file takes a minute or more; the removal data itself is checked part by part in removal.test.ts.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { optionalParts } from "../../server/build/dev/optional-parts.mjs";
import { planRemoval } from "../../server/build/dev/removal-plan.mjs";
import { copyCheckout } from "../helpers/checkout-copy.mjs";

const ROOT = process.cwd();
/** The optional parts this checkout still has (a fork may have removed some or all). */
const PARTS = optionalParts(ROOT).map((part) => part.name);
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

/** A copy of the checkout (its node_modules linked) holding the fork's own files; removed when `use` ends. */
async function inFork(use: (copy: string) => Promise<void>): Promise<void> {
  const copy = copyCheckout(ROOT, "features-test-");
  try {
    for (const [file, text] of Object.entries(OWN)) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      writeFileSync(join(copy, file), text);
    }
    await use(copy);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** Runs `npm run features -- …args` in `copy` (as npm runs it: node and the script); its exit code and what it printed. */
function features(copy: string, ...args: string[]): Promise<{ code: number; printed: string }> {
  const script = join(copy, "server/build/dev/features.mjs");
  return new Promise((resolve) =>
    execFile(process.execPath, [script, ...args], { cwd: copy, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: typeof error?.code === "number" ? error.code : 0, printed: stdout + stderr }),
    ),
  );
}

/** The fork's own files are there, unchanged. */
function expectOwnFiles(copy: string): void {
  for (const [file, text] of Object.entries(OWN)) expect(readFileSync(join(copy, file), "utf8"), file).toBe(text);
}

// Each removal makes Nitro's types and runs tsc on a copy: tens of seconds, minutes on a loaded machine.
describe("npm run features, in a fork with a tool and a test of its own", { timeout: 600_000 }, () => {
  it("lists the optional parts with what each costs", async () => {
    const { code, printed } = await features(ROOT);
    expect(code).toBe(0);
    for (const name of PARTS) expect(printed).toMatch(new RegExp(`^ {2}[ ⚠] ${name} +\\d+ lines {2}\\S`, "m"));
    if (PARTS.includes("legacy")) expect(printed).toMatch(/^ {2}⚠ legacy /m);
    if (PARTS.length === 0) expect(printed).toContain("No optional part is left");
  });

  it.runIf(PARTS.includes("examples"))("refuses a removal that would not type-check, and changes nothing", () =>
    inFork(async (copy) => {
      writeFileSync(
        join(copy, "server/tools/uses_notes.ts"),
        'import { listNotes } from "../examples/notes";\n\nexport const count = async () => (await listNotes()).length;\n',
      );
      const readme = readFileSync(join(copy, "README.md"), "utf8");
      const { code, printed } = await features(copy, "remove", "examples");
      expect(code, printed).toBe(1);
      expect(printed).toContain("Nothing was changed");
      expect(printed).toMatch(/server\/tools\/uses_notes\.ts\(\d+,\d+\): error TS/);
      expect(existsSync(join(copy, "server/tools/greet.ts"))).toBe(true);
      expect(readFileSync(join(copy, "README.md"), "utf8")).toBe(readme);
    }),
  );

  it.runIf(PARTS.includes("examples"))(
    "keeps an example the fork rewrote, says so in one line, and removes the untouched ones",
    () =>
      inFork(async (copy) => {
        const greet = join(copy, "server/tools/greet.ts");
        const ours = readFileSync(greet, "utf8").replace('"Hello"', '"Howdy"');
        writeFileSync(greet, ours);
        // The examples' other files, as far as this checkout has not changed them either.
        const untouched = planRemoval(
          copy,
          optionalParts(copy).filter((part) => part.name === "examples"),
        ).deleted.flatMap((entry) => entry.files);
        expect(untouched).not.toContain("server/tools/greet.ts");

        const { code, printed } = await features(copy, "remove", "examples");
        expect(code, printed).toBe(0);
        expect(printed.split("\n").filter((line) => line.includes("server/tools/greet.ts"))).toEqual([
          "  keep server/tools/greet.ts: it differs from what the template shipped (yours now: delete it if you do not need it)",
        ]);
        expect(readFileSync(greet, "utf8")).toBe(ours);
        for (const file of untouched) expect(existsSync(join(copy, file)), file).toBe(false);

        const again = await features(copy, "remove", "examples");
        expect(again.code).toBe(0);
        expect(again.printed).toContain("Nothing to remove");
        expect(readFileSync(greet, "utf8")).toBe(ours);
      }),
  );

  it("records a part of the fork's own, whose removal then deletes its files (without the record, it keeps them)", () =>
    inFork(async (copy) => {
      const plugin = "server/features/audit/plugins/audit.ts";
      mkdirSync(join(copy, dirname(plugin)), { recursive: true });
      writeFileSync(join(copy, plugin), "export default defineNitroPlugin(() => {});\n");
      const data = { about: "the fork's audit log", delete: ["server/features/audit/"] };
      const block = `<!-- fork:remove:audit:start -->\n\`\`\`json\n${JSON.stringify(data, null, 2)}\n\`\`\`\n<!-- fork:remove:audit:end -->`;
      writeFileSync(join(copy, "server/features/audit/README.md"), `# Audit\n\n${block}\n`);

      const unrecorded = await features(copy, "remove", "audit", "--dry-run");
      expect(unrecorded.printed).toContain(`keep ${plugin}: the template did not ship it`);
      expect((await features(copy, "record", "audit-log")).code, "an unknown part").toBe(1);
      const recorded = await features(copy, "record", "audit");
      expect(recorded.code, recorded.printed).toBe(0);
      expect(recorded.printed).toContain("Recorded in server/features/audit/README.md.");
      expect((await features(copy, "record", "audit")).code, "recorded already").toBe(1);
      expect((await features(copy, "record", "audit", "--again")).printed).toContain("Already recorded");
      // A part the template ships has its record: recording it again would make a fork's edits to it look shipped.
      if (PARTS.length > 0) {
        const refused = await features(copy, "record", PARTS[0]!);
        expect(refused.code).toBe(1);
        expect(refused.printed).toContain("recorded already");
      }

      const removed = await features(copy, "remove", "audit");
      expect(removed.code, removed.printed).toBe(0);
      expect(removed.printed).not.toContain("keep ");
      expect(existsSync(join(copy, "server/features/audit")), removed.printed).toBe(false);
      expectOwnFiles(copy);
    }));

  it("removes the examples by their names, then every other part, keeping the fork's own tool and test", () =>
    inFork(async (copy) => {
      if (PARTS.includes("examples")) {
        const dryRun = await features(copy, "remove", "examples", "--dry-run");
        expect(dryRun.code).toBe(0);
        expect(dryRun.printed).toContain("server/tools/greet.ts");
        expect(dryRun.printed).not.toContain("my_tool");
        expect(existsSync(join(copy, "server/tools/greet.ts")), "a dry run changes nothing").toBe(true);

        const { code, printed } = await features(copy, "remove", "examples");
        expect(code, printed).toBe(0);
        expect(printed).toContain("Removed examples.");
        expect(existsSync(join(copy, "server/tools/greet.ts"))).toBe(false);
        expect(existsSync(join(copy, "server/examples"))).toBe(false);
        expectOwnFiles(copy);

        const again = await features(copy, "remove", "examples");
        expect(again.code).toBe(0);
        expect(again.printed).toContain("Nothing to remove");
      }

      const { code, printed } = await features(copy, "remove", "--all");
      expect(code, printed).toBe(0);
      if (PARTS.includes("legacy")) expect(printed).toMatch(/⚠ legacy: /);
      for (const gone of ["server/features", "server/dev", "tests/bench"])
        expect(existsSync(join(copy, gone)), gone).toBe(false);
      expectOwnFiles(copy);
      expect((await features(copy)).printed).toContain("No optional part is left");
    }));
});
