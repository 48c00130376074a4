/**
 * A Node binary of a given version, from the npm registry (the `node-<platform>-<arch>` package,
 * which ships the official build), unpacked into .cache/ once. The conformance suite needs
 * Node >= 22, and CI runs the suite again on Node 22, 24 and 26.
 *
 * Command line: `node tests/helpers/node-binary.mjs 26.12.1` prints the binary's path.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The Node the tools that need Node >= 22 run on (the conformance suite, the MCP Inspector), when the suite's is older. */
export const MODERN_NODE = "22.23.5";

/**
 * The path of Node `version`'s binary, fetched on first use.
 * @param {string} version exact, e.g. "24.22.3"
 * @param {string} [root] the repository, whose .cache/ keeps the binary
 * @returns {string}
 */
export function nodeBinary(version, root = process.cwd()) {
  const dir = resolve(root, ".cache", `node-${version}`);
  const binary = join(dir, "package", "bin", "node");
  if (existsSync(binary)) return binary;

  const name = `node-${process.platform}-${process.arch}@${version}`;
  console.error(`[node] fetching ${name} from the npm registry…`);
  // Unpacked in a folder of its own, then moved into place in one step: tests that fetch the same binary at the same time
  // (in parallel processes) never see half of it, nor delete what another unpacked.
  mkdirSync(dirname(dir), { recursive: true });
  const staging = mkdtempSync(`${dir}.`);
  try {
    execFileSync("npm", ["pack", name, "--pack-destination", staging, "--silent"], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    const tarball = readdirSync(staging).find((file) => file.endsWith(".tgz"));
    if (!tarball) throw new Error(`npm pack ${name} produced no tarball`);
    execFileSync("tar", ["-xzf", join(staging, tarball), "-C", staging]);
    rmSync(join(staging, tarball));
    chmodSync(join(staging, "package", "bin", "node"), 0o755);
    // A folder without the binary was left by a fetch that was interrupted: set it aside (in one step, as another process
    // may do the same), so that ours can take its place.
    if (existsSync(dir) && !existsSync(binary)) {
      try {
        renameSync(dir, `${staging}.stale`);
      } catch {
        // Another process set it aside first.
      }
    }
    renameSync(staging, dir);
  } catch (error) {
    // Another process moved its copy into place first: use it. Anything else is a failure to report.
    if (!existsSync(binary)) throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(`${staging}.stale`, { recursive: true, force: true });
  }
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const version = process.argv[2];
  if (!version) throw new Error("usage: node tests/helpers/node-binary.mjs <version>");
  console.log(nodeBinary(version));
}
