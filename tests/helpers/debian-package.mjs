/**
 * Programs the tests need from Debian (redis-server, chromium, tmux): found on the machine, or
 * installed with apt-get when missing, since CI starts from a clean machine with Debian's
 * packages as the only source besides npm.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

function findBinary(binary) {
  for (const dir of ["/usr/bin", "/usr/local/bin", "/usr/sbin"]) if (existsSync(`${dir}/${binary}`)) return `${dir}/${binary}`;
  try {
    return execFileSync("sh", ["-c", `command -v ${binary}`], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The path of `binary`, installing Debian's `debianPackage` first if it is missing.
 * @param {string} binary e.g. "redis-server"
 * @param {string} [debianPackage] defaults to `binary`
 * @returns {string}
 */
export function ensureDebianBinary(binary, debianPackage = binary) {
  const found = findBinary(binary);
  if (found) return found;
  console.log(`[setup] ${binary} is missing: installing Debian's package (apt-get install ${debianPackage})…`);
  const asRoot = process.getuid?.() === 0 ? [] : ["sudo", "-n"];
  const run = (args) =>
    execFileSync([...asRoot, ...args][0], [...asRoot, ...args].slice(1), {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  run(["apt-get", "update", "-qq"]);
  run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", debianPackage]);
  const installed = findBinary(binary);
  if (!installed) throw new Error(`${binary} could not be installed (Debian package ${debianPackage})`);
  return installed;
}
