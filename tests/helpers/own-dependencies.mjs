/**
 * Packages that only one corner of the tests needs (the benchmark's peers, the MCP Inspector) stay out of the root
 * install: each corner has its own package.json and lockfile, installed there (`npm ci`) the first time it is used and
 * again whenever its lockfile changes (a hash of the lockfile is kept in its node_modules). Code in that folder resolves
 * its own packages first, then falls back to the root's.
 *
 * Test files run in parallel workers, and on a fresh clone two of them may want the same folder at once: two `npm ci`
 * in one folder delete each other's files. One installs while the others wait on a lock (a directory: creating one is
 * atomic), then find the stamp and install nothing.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A lock without its holder's pid this long after it was made lost its holder before the pid was written. */
const ORPHAN_MS = 10_000;

/** How long ago `path` was made, in ms (0 when it is gone already). */
function ageMs(path) {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Whether the process `pid` still runs (a lock whose holder died is free). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** Runs `work` holding the lock `path`, waiting while a live process holds it. */
function withLock(path, work) {
  for (;;) {
    try {
      mkdirSync(path);
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(join(path, "pid"), "utf8"));
      } catch {
        // Created, pid not written yet: its holder is alive, unless it died in between (then the lock is old).
      }
      const dead = Number.isInteger(holder) ? holder > 0 && !alive(holder) : ageMs(path) > ORPHAN_MS;
      if (dead) rmSync(path, { recursive: true, force: true });
      else pause(200);
    }
  }
  try {
    writeFileSync(join(path, "pid"), String(process.pid));
    return work();
  } finally {
    rmSync(path, { recursive: true, force: true });
  }
}

/**
 * Installs the packages of `dir` unless its lockfile is the one installed last.
 * @param {string} dir a folder with package.json and package-lock.json
 * @param {{ node?: string }} [options] `node`: the binary npm runs with (a package may need a newer Node than the suite's)
 */
export function ensureOwnDependencies(dir, { node } = {}) {
  const stamp = join(dir, "node_modules", ".package-lock.sha256");
  const hash = createHash("sha256")
    .update(readFileSync(join(dir, "package-lock.json")))
    .digest("hex");
  const installed = () => existsSync(stamp) && readFileSync(stamp, "utf8") === hash;
  if (installed()) return;
  withLock(join(dir, ".installing"), () => {
    if (installed()) return;
    console.error(`installing the packages of ${dir} (npm ci there)`);
    const env = node ? { ...process.env, PATH: `${join(node, "..")}:${process.env.PATH}` } : process.env;
    // npm's own output goes to stderr: stdout may carry a report.
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: dir,
      env,
      stdio: ["ignore", process.stderr, "inherit"],
    });
    writeFileSync(stamp, hash);
  });
}
