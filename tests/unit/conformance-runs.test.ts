/**
 * Which conformance runs a checkout gets (tests/conformance/runs.mjs), here and in copies with a part removed by the
 * feature picker's plan (no type-check, no build, no suite run: the fork proof runs the suite in the minimal fork): a
 * part's scenarios and older revisions are run while the part is there and not at all once it is gone, so a fork prints
 * no failure for what it removed; the requirement set is run whole only when every extension scenario it includes is
 * implemented, and what it requires stays checked either way.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { optionalParts } from "../../server/build/dev/optional-parts.mjs";
import { applyRemoval, planRemoval } from "../../server/build/dev/removal-plan.mjs";
import { conformanceRuns, REVISION, requirementSet } from "../conformance/runs.mjs";
import { sourceFiles } from "../helpers/leftovers.mjs";

const ROOT = process.cwd();
const PARTS = optionalParts(ROOT);
/** The parts that answer for something in the conformance run. */
const CLAIMING = PARTS.filter((part) => part.data.conformance);
const EXTENSIONS = requirementSet(REVISION)
  .unscored.filter((entry) => entry.reason === "extension")
  .map((entry) => entry.scenario);

/** What the runs of `root` check: the requirement set whole or not, the scenarios run by name, the older revisions. */
function selection(root: string) {
  const { runs, required, leftOut } = conformanceRuns(root);
  const flags = runs.flatMap((run) => run.invocations);
  return {
    requirementsWhole: flags.some((args) => args[0] === "--requirements"),
    byName: flags.filter((args) => args[0] === "--scenario").map((args) => args[1]),
    revisions: flags
      .filter((args) => args.includes("--spec-version"))
      .map((args) => args[args.indexOf("--spec-version") + 1]),
    required,
    leftOut,
  };
}

/** The selection of a copy of the checkout with `name` removed by the picker's plan. */
function selectionWithout(name: string) {
  const copy = mkdtempSync(join(tmpdir(), "conformance-runs-"));
  try {
    for (const file of sourceFiles(ROOT)) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(ROOT, file), join(copy, file));
    }
    applyRemoval(
      copy,
      planRemoval(
        copy,
        optionalParts(copy).filter((part) => part.name === name),
      ),
    );
    return selection(copy);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** Every scenario the selection runs by name or through the requirement set (`--suite all` runs name none of a part's). */
const scenariosRun = (chosen: ReturnType<typeof selection>) => [
  ...chosen.byName,
  ...(chosen.requirementsWhole ? EXTENSIONS : []),
];

describe("the conformance runs follow the parts a checkout has", { timeout: 60_000 }, () => {
  it("runs what each part here implements, and no extension scenario that no part implements", () => {
    const chosen = selection(ROOT);
    for (const { name, data } of CLAIMING) {
      for (const scenario of data.conformance.scenarios ?? []) expect(scenariosRun(chosen), name).toContain(scenario);
      for (const revision of data.conformance.specVersions ?? []) expect(chosen.revisions, name).toContain(revision);
    }
    const implemented = CLAIMING.flatMap((part) => part.data.conformance.scenarios ?? []);
    expect(chosen.leftOut).toEqual(EXTENSIONS.filter((scenario) => !implemented.includes(scenario)));
    expect(chosen.requirementsWhole).toBe(chosen.leftOut.length === 0);
    expect(chosen.revisions).toContain(REVISION);
    expect(chosen.required.length).toBeGreaterThan(0);
  });

  it.runIf(PARTS.some((part) => part.name === "tasks"))(
    "with the tasks extension here, the requirement set runs whole, its extension scenarios included",
    () => {
      const chosen = selection(ROOT);
      expect(chosen.leftOut).toEqual([]);
      expect(chosen.requirementsWhole).toBe(true);
    },
  );

  it.each(CLAIMING.map((part) => part.name))("without %s: none of its scenarios or revisions is run", (name) => {
    const claim = CLAIMING.find((part) => part.name === name)!.data.conformance;
    const before = selection(ROOT);
    const after = selectionWithout(name);
    for (const scenario of claim.scenarios ?? []) {
      expect(scenariosRun(before)).toContain(scenario);
      expect(scenariosRun(after)).not.toContain(scenario);
    }
    for (const revision of claim.specVersions ?? []) {
      expect(before.revisions).toContain(revision);
      expect(after.revisions).not.toContain(revision);
    }
    // What the revision requires is checked with or without the part: the suite's runs of it name no part.
    expect(after.required).toEqual(before.required);
    expect(after.revisions).toContain(REVISION);
    if ((claim.scenarios ?? []).some((scenario: string) => EXTENSIONS.includes(scenario)))
      expect(after.requirementsWhole, "the requirement set, which would run the removed part's scenarios").toBe(false);
  });
});
