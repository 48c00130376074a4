/**
 * Each optional part's removal, simulated in a copy of the checkout's files (no install, no type-check, no build: the
 * fork proof in tests/fork/ does those, and features.test.ts runs the picker itself): the picker's plan for it
 * (`fork:remove:<name>` data, server/build/dev/removal-plan.mjs) is applied, alone and all together, then nothing may be
 * left behind (see tests/helpers/leftovers.mjs): no README, `.env.example` or settings table naming a removed file, folder,
 * tool, prompt, resource, skill, setting or npm script, no `NITRO_MCP_*` setting in a doc that no code left reads, no
 * dependency nothing uses. Applied a second time, the plan finds nothing left to do.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { optionalParts, withNeeding } from "../../server/build/dev/optional-parts.mjs";
import { applyRemoval, isEmptyPlan, planRemoval } from "../../server/build/dev/removal-plan.mjs";
import { leftoversAfterRemoval, sourceFiles } from "../helpers/leftovers.mjs";

const ROOT = process.cwd();
/** The optional parts this checkout still has (in a fork, some may be gone already). */
const PARTS = optionalParts(ROOT).map((part) => part.name);

function leftoversOf(removed: string[]): string[] {
  const copy = mkdtempSync(join(tmpdir(), "removal-"));
  try {
    for (const file of sourceFiles(ROOT)) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(ROOT, file), join(copy, file));
    }
    const chosen = optionalParts(copy).filter((part) => removed.includes(part.name));
    // The parts that need a removed one go with it.
    const { parts: gone, ...plan } = planRemoval(copy, chosen);
    applyRemoval(copy, plan);
    expect(optionalParts(copy).map((part) => part.name)).toEqual(PARTS.filter((name) => !gone.includes(name)));
    expect(isEmptyPlan(planRemoval(copy, chosen)), "a second removal finds nothing").toBe(true);
    return leftoversAfterRemoval(ROOT, copy, gone);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

// Copying the checkout and reading it for each removal takes a second or so; a loaded machine gets a generous bound.
describe("an optional part's removal leaves no doc naming what it took, no dead setting, no unused dependency", {
  timeout: 60_000,
}, () => {
  it.each(PARTS)("without %s", (name) => {
    expect(leftoversOf([name])).toEqual([]);
  });

  it("the minimal fork (every part removed)", () => {
    expect(leftoversOf(PARTS)).toEqual([]);
  });
});

describe("a part that needs another", () => {
  const part = (name: string, needs?: string[]) => ({
    name,
    readme: `${name}/README.md`,
    data: { about: name, needs },
  });
  const present = [part("a"), part("b", ["a"]), part("c", ["b"]), part("d")];

  it("goes with it, and so does a part that needs that one; the others stay", () => {
    expect(withNeeding(present, [present[0]!]).map(({ name }) => name)).toEqual(["a", "b", "c"]);
    expect(withNeeding(present, [present[1]!]).map(({ name }) => name)).toEqual(["b", "c"]);
    expect(withNeeding(present, [present[3]!]).map(({ name }) => name)).toEqual(["d"]);
  });
});
