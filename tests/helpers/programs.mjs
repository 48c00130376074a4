/**
 * Programs some tests need that npm cannot bring (redis-server, chromium, tmux, curl, valgrind). They are
 * looked up on PATH only, so a run can hide one, and never installed by a test: .ci/run installs
 * the missing ones from Debian before the suite (`node tests/helpers/programs.mjs --install`).
 *
 * Outside CI, the tests that need a missing program are skipped, and the summary names the
 * program and how to install it. Under CI (CI=true) nothing is skipped: those tests run and fail
 * on the missing program, saying so.
 */
import { execFileSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Each program, the Debian package that brings it, and the macOS command that does. */
const PROGRAMS = {
  "redis-server": { debian: "redis-server", macos: "brew install redis" },
  chromium: { debian: "chromium", macos: "brew install --cask chromium" },
  tmux: { debian: "tmux", macos: "brew install tmux" },
  curl: { debian: "curl", macos: "ships with macOS" },
  valgrind: { debian: "valgrind", macos: "brew install valgrind (Intel Macs only)" },
};

/** @typedef {keyof typeof PROGRAMS} Program */

/** Whether this run is CI's (CI set, and not to "0" or "false"): there nothing is skipped. */
export const inCI = () => !["", "0", "false"].includes(process.env.CI ?? "");

/**
 * The path of `program` in one of PATH's folders, if it is there.
 * @param {string} program
 */
export function findProgram(program) {
  for (const dir of (process.env.PATH ?? "").split(delimiter).filter(Boolean)) {
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

/** @param {Program} program */
export const howToInstall = (program) =>
  `Debian: apt-get install ${PROGRAMS[program].debian}; macOS: ${PROGRAMS[program].macos}`;

/**
 * The path of `program`; throws, saying how to install it, when it is missing.
 * @param {Program} program
 */
export function programPath(program) {
  const found = findProgram(program);
  if (!found) throw new Error(`${program} is not on PATH: these tests need it (${howToInstall(program)})`);
  return found;
}

/**
 * Options for a `describe` or an `it` whose tests need `programs`: outside CI, skipped when one
 * is missing, which is named for the summary reporter (`meta.needs`). With nothing missing, no `skip`
 * at all: a suite's `skip: false` would override its tests' own `it.runIf`/`it.skipIf`.
 * @param {...Program} programs
 * @returns {{ skip?: boolean, meta: { needs?: string } }}
 */
export function needs(...programs) {
  const missing = programs.find((program) => !findProgram(program));
  if (!missing || inCI()) return { meta: {} };
  return { skip: true, meta: { needs: `${missing} (${howToInstall(missing)})` } };
}

/** Installs the missing programs with apt-get, as root: what .ci/run does on a clean machine. */
function installMissing() {
  const missing = /** @type {Program[]} */ (Object.keys(PROGRAMS)).filter((program) => !findProgram(program));
  if (missing.length === 0) return;
  const packages = missing.map((program) => PROGRAMS[program].debian);
  if (process.getuid?.() !== 0 || !findProgram("apt-get")) {
    throw new Error(`missing ${missing.join(", ")}: install them as root (apt-get install ${packages.join(" ")})`);
  }
  console.log(`[programs] installing Debian's ${packages.join(", ")}…`);
  const run = (/** @type {string[]} */ args) =>
    execFileSync("apt-get", args, {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  run(["update", "-qq"]);
  run(["install", "-y", "-qq", "--no-install-recommends", ...packages]);
  const stillMissing = missing.filter((program) => !findProgram(program));
  if (stillMissing.length)
    throw new Error(`installed ${packages.join(", ")}, but ${stillMissing.join(", ")} is still not on PATH`);
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "--install") installMissing();
