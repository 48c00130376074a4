/**
 * Which conformance runs a checkout gets. The core's: the scenarios the current revision requires (the suite's frozen
 * requirement set, `--requirements`) and every scenario the suite has for that revision (`--suite all`). The rest comes
 * from the optional parts still in the checkout, through the `conformance` field of their removal data
 * (server/build/dev/optional-parts.mjs): the extension scenarios a part implements, and the older revisions it serves.
 * A part's claims go with it, so a fork runs only the scenarios of what it kept.
 *
 * The requirement set includes extension scenarios (the tasks extension's, today), which the suite cannot leave out of a
 * `--requirements` run. When a checkout implements every one of them, that run is made whole; otherwise it is not made
 * at all, and the scenarios it requires are checked in the other runs instead (run.mjs says so in its verdict).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { optionalParts } from "../../server/build/dev/optional-parts.mjs";

/** The revision the core speaks. */
export const REVISION = "2026-07-28";

const SUITE = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/conformance/", import.meta.url));

/**
 * The server side of the suite's requirement set for `revision` (its `requirements/<revision>.yaml`, frozen when the
 * revision shipped): the scenarios it scores, and those it runs without scoring, each with the suite's reason
 * (`extension`, `pending`, …).
 * @param {string} revision
 * @returns {{ scored: string[], unscored: { scenario: string, reason: string }[] }}
 */
export function requirementSet(revision) {
  const file = join(SUITE, "requirements", `${revision}.yaml`);
  const text = readFileSync(file, "utf8");
  const serverList = /^server:\n((?: {2}- \S+\n)+)/m.exec(text)?.[1] ?? "";
  const scored = [...serverList.matchAll(/^ {2}- (\S+)$/gm)].map((match) => match[1]);
  const unscored = [...text.matchAll(/^ {2}- scenario: (\S+)\n {4}leg: server\n {4}reason: (\S+)$/gm)].map(
    ([, scenario, reason]) => ({ scenario, reason }),
  );
  if (scored.length === 0) throw new Error(`${file}: no server scenarios found (has the suite changed its format?)`);
  return { scored, unscored };
}

/**
 * One run of the suite: `invocations` are the suite's arguments (besides `server --url … -o …`), one call each; the
 * scenarios it makes are all gated, but for those of `baseline` (its expected failures, from the root).
 * @typedef {{ name: string, invocations: string[][], baseline?: string }} Run
 */

/**
 * The runs for the checkout at `root`, and what the current revision requires of it.
 * @param {string} root
 * @returns {{
 *   runs: Run[],
 *   required: string[],
 *   leftOut: string[],
 * }} `required`: the scenarios the revision scores, which some run must make clean; `leftOut`: the requirement set's
 *   extension scenarios that no part of the checkout implements (the `--requirements` run is not made when there are any)
 */
export function conformanceRuns(root) {
  const claims = optionalParts(root).map((part) => part.data.conformance ?? {});
  const implemented = new Set(claims.flatMap((claim) => claim.scenarios ?? []));
  const { scored, unscored } = requirementSet(REVISION);
  const extensions = unscored.filter((entry) => entry.reason === "extension").map((entry) => entry.scenario);
  const leftOut = extensions.filter((scenario) => !implemented.has(scenario));
  const whole = leftOut.length === 0;

  /** @type {Run[]} */
  const runs = [];
  if (whole) runs.push({ name: "requirements", invocations: [["--requirements", REVISION]] });
  runs.push({ name: "all", invocations: [["--suite", "all", "--spec-version", REVISION]] });
  // Extension scenarios are on no revision's timeline: each runs on its own, as the suite's default wire.
  const byName = [...implemented].filter((scenario) => !(whole && extensions.includes(scenario)));
  if (byName.length > 0)
    runs.push({ name: "extensions", invocations: byName.map((scenario) => ["--scenario", scenario]) });
  for (const version of new Set(claims.flatMap((claim) => claim.specVersions ?? []))) {
    const baseline = `tests/conformance/expected-failures.${version}.yaml`;
    const flags = ["--suite", "all", "--spec-version", version];
    runs.push(
      existsSync(join(root, baseline))
        ? { name: version, invocations: [[...flags, "--expected-failures", baseline]], baseline }
        : { name: version, invocations: [flags] },
    );
  }
  return { runs, required: scored, leftOut };
}
