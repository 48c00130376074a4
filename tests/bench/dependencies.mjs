/**
 * The benchmark's own packages (tests/bench/package.json: autocannon, the peers, esbuild) stay out
 * of the root install: they are installed here, from tests/bench/package-lock.json, the first time
 * the benchmark runs and again whenever that lockfile changes (a hash of it is kept in node_modules).
 * Code under tests/bench/ resolves them first, then falls back to the root's packages.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const STAMP = join(BENCH_DIR, "node_modules", ".package-lock.sha256");

export function ensureBenchDependencies() {
  const hash = createHash("sha256").update(readFileSync(join(BENCH_DIR, "package-lock.json"))).digest("hex");
  if (existsSync(STAMP) && readFileSync(STAMP, "utf8") === hash) return;
  console.error("bench: installing the benchmark's own packages (npm ci in tests/bench)");
  // npm's own output goes to stderr: stdout carries the report.
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: BENCH_DIR, stdio: ["ignore", process.stderr, "inherit"] });
  writeFileSync(STAMP, hash);
}
