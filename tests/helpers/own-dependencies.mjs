/**
 * Packages that only one corner of the tests needs (the benchmark's peers, the MCP Inspector) stay out of the root
 * install: each corner has its own package.json and lockfile, installed there (`npm ci`) the first time it is used and
 * again whenever its lockfile changes (a hash of the lockfile is kept in its node_modules). Code in that folder resolves
 * its own packages first, then falls back to the root's.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

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
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === hash) return;
  console.error(`installing the packages of ${dir} (npm ci there)`);
  const env = node ? { ...process.env, PATH: `${join(node, "..")}:${process.env.PATH}` } : process.env;
  // npm's own output goes to stderr: stdout may carry a report.
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    env,
    stdio: ["ignore", process.stderr, "inherit"],
  });
  writeFileSync(stamp, hash);
}
