/**
 * The conformance suite needs Node >= 22; CI has Node 20. This fetches a Node 22 binary
 * from the npm registry (the `node-<platform>-<arch>` package) into .cache/, once.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const NODE_VERSION = "22.23.5";

export function ensureNode22(root = process.cwd()) {
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  const dir = resolve(root, ".cache", `node-${NODE_VERSION}`);
  const binary = join(dir, "package", "bin", "node");
  if (existsSync(binary)) return binary;

  const name = `node-${process.platform}-${process.arch}@${NODE_VERSION}`;
  console.log(`[conformance] fetching ${name} from the npm registry (the suite needs Node >= 22)…`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync("npm", ["pack", name, "--pack-destination", dir, "--silent"], { stdio: ["ignore", "ignore", "inherit"] });
  const tarball = readdirSync(dir).find((file) => file.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack ${name} produced no tarball`);
  execFileSync("tar", ["-xzf", join(dir, tarball), "-C", dir]);
  rmSync(join(dir, tarball));
  chmodSync(binary, 0o755);
  return binary;
}
