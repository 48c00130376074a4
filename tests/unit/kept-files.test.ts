/**
 * The feature picker never deletes a fork's work: a file of a part that differs from what the template shipped (an
 * example the fork rewrote, a file it added to a part's folder) is kept by the removal plan and listed as kept, while
 * the part's untouched files go; a second removal finds nothing to do. The plan is applied in a copy of the checkout
 * (server/build/dev/removal-plan.mjs), with no type-check: features.test.ts runs the command itself.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { optionalParts } from "../../server/build/dev/optional-parts.mjs";
import { applyRemoval, isEmptyPlan, planRemoval } from "../../server/build/dev/removal-plan.mjs";
import { sourceFiles } from "../helpers/leftovers.mjs";

const ROOT = process.cwd();
const PARTS = optionalParts(ROOT);
/** A part with a folder of its own (a feature's, the terminal client's…), the last the picker lists. */
const WITH_FOLDER = PARTS.findLast((part) => (part.data.delete ?? []).some((path: string) => path.endsWith("/")));

/** A copy of the checkout's files; removed when `use` ends. */
function inCopy(use: (copy: string) => void): void {
  const copy = mkdtempSync(join(tmpdir(), "kept-files-"));
  try {
    for (const file of sourceFiles(ROOT)) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(ROOT, file), join(copy, file));
    }
    use(copy);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

const planFor = (copy: string, name: string) =>
  planRemoval(
    copy,
    optionalParts(copy).filter((part) => part.name === name),
  );
const deletedBy = (plan: ReturnType<typeof planRemoval>) => plan.deleted.flatMap((entry) => entry.files);

/** The parts with two files or more recorded as shipped besides their README (all but the one-module worker-size). */
const RECORDING = PARTS.filter(
  (part) => Object.keys(part.data.shipped ?? {}).filter((file) => file !== part.readme).length >= 2,
);

it.each(RECORDING.map((part) => part.name))("%s: a file the fork edited is kept, the untouched ones go", (name) =>
  inCopy((copy) => {
    // Whatever this checkout has edited already, the files the plan would delete are untouched ones. (The part's README
    // is the next test's.)
    // Its own files: the plan also deletes those of the parts that need it.
    const { readme, data } = PARTS.find((part) => part.name === name)!;
    const files = deletedBy(planFor(copy, name)).filter((file) => file !== readme && file in (data.shipped ?? {}));
    expect(files.length, "files of the part as shipped").toBeGreaterThanOrEqual(2);
    const [edited, untouched] = files as [string, string];
    const ours = `${readFileSync(join(copy, edited), "utf8")}\nours\n`;
    writeFileSync(join(copy, edited), ours);

    const plan = planFor(copy, name);
    expect(plan.kept).toContainEqual({ file: edited, part: name, reason: "edited" });
    expect(deletedBy(plan)).not.toContain(edited);
    expect(deletedBy(plan)).toContain(untouched);
    applyRemoval(copy, plan);
    expect(readFileSync(join(copy, edited), "utf8")).toBe(ours);
    expect(existsSync(join(copy, untouched))).toBe(false);

    // Its data went with it (a kept README loses its block), so removing it again finds nothing.
    expect(optionalParts(copy).map((part) => part.name)).not.toContain(name);
    expect(isEmptyPlan(planFor(copy, name))).toBe(true);
  }),
);

it.runIf(WITH_FOLDER)("a part's README the fork edited is kept without the part's removal data", () =>
  inCopy((copy) => {
    const { name, readme } = WITH_FOLDER!;
    const ours = `${readFileSync(join(copy, readme), "utf8")}\nOur notes on it.\n`;
    writeFileSync(join(copy, readme), ours);
    const plan = planFor(copy, name);
    expect(plan.kept).toContainEqual({ file: readme, part: name, reason: "edited" });
    applyRemoval(copy, plan);
    const left = readFileSync(join(copy, readme), "utf8");
    expect(left).toContain("Our notes on it.");
    expect(left).not.toContain(`fork:remove:${name}`);
    expect(optionalParts(copy).map((part) => part.name)).not.toContain(name);
  }),
);

it.runIf(WITH_FOLDER)("a file the fork added to a part's folder is kept", () =>
  inCopy((copy) => {
    const folder = (WITH_FOLDER!.data.delete as string[]).find((path) => path.endsWith("/"))!;
    const added = `${folder}mine.ts`;
    writeFileSync(join(copy, added), "export const mine = 1;\n");
    const plan = planFor(copy, WITH_FOLDER!.name);
    expect(plan.kept).toContainEqual({ file: added, part: WITH_FOLDER!.name, reason: "not shipped" });
    applyRemoval(copy, plan);
    expect(readFileSync(join(copy, added), "utf8")).toBe("export const mine = 1;\n");
    expect(isEmptyPlan(planFor(copy, WITH_FOLDER!.name))).toBe(true);
  }),
);
