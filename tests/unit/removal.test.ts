/**
 * Each feature's removal, simulated in a copy of the checkout's files (no install, no build: the fork proof in
 * tests/fork/ does those): its `fork:remove:<name>` block runs verbatim, then nothing may be left behind (see
 * tests/helpers/leftovers.mjs): no doc naming a removed setting, folder or file, no dependency nothing uses.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { docBlock } from "../helpers/docs";
import { featureFolder, leftoversAfterRemoval, sourceFiles } from "../helpers/leftovers.mjs";

const ROOT = process.cwd();
/** The features this checkout still has (in a fork, some may be gone already). */
const FEATURES = [
  ...(existsSync(join(ROOT, "server/features")) ? readdirSync(join(ROOT, "server/features")) : []),
  "dev",
].filter((name) => existsSync(join(ROOT, featureFolder(name))));
const removal = (name: string) =>
  docBlock(name === "examples" ? "README.md" : `${featureFolder(name)}/README.md`, `fork:remove:${name}`);

function leftoversOf(removed: string[]): string[] {
  const copy = mkdtempSync(join(tmpdir(), "removal-"));
  try {
    for (const file of sourceFiles(ROOT)) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(ROOT, file), join(copy, file));
    }
    for (const name of removed) execFileSync("bash", ["-e", "-c", removal(name)], { cwd: copy, stdio: "pipe" });
    return leftoversAfterRemoval(ROOT, copy, removed);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

// Copying the checkout and running npm for each removal takes a second or so; a loaded machine gets a generous bound.
describe("a feature's removal leaves no dead setting, no dangling doc, no unused dependency", {
  timeout: 60_000,
}, () => {
  it.each(FEATURES)("without %s", (name) => {
    expect(leftoversOf([name])).toEqual([]);
  });

  it("the minimal fork (the examples and every feature removed)", () => {
    expect(leftoversOf(["examples", ...FEATURES])).toEqual([]);
  });
});
