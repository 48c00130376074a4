/** Global setup: build the Node server once; every e2e test talks to that real build over HTTP. */
import { execFileSync } from "node:child_process";

export default function setup() {
  if (process.env.SKIP_BUILD === "1") return;
  execFileSync("npx", ["nitropack", "build"], { stdio: "inherit", env: { ...process.env, MCP_FIXTURES: "" } });
}
