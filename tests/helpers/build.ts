/**
 * Global setup: build every target once, the way a user does (`npm run build`,
 * `build:cloudflare`, `build:vercel`); the suites then talk to those real builds over HTTP.
 * Builds run one after another: they share Nitro's build folder.
 */
import { execFileSync } from "node:child_process";

export default function setup() {
  if (process.env.SKIP_BUILD === "1") return;
  for (const script of ["build", "build:cloudflare", "build:vercel"]) {
    execFileSync("npm", ["run", "--silent", script], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, MCP_FIXTURES: "" } });
  }
  // The fixture build (.output-conformance): the conformance suite's fixtures and the tests' own.
  execFileSync("npx", ["nitropack", "build"], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, MCP_FIXTURES: "conformance" } });
}
