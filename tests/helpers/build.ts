/**
 * Global setup of the end-to-end tests: build the product and the fixture builds once (see
 * builds.mjs); the suites then talk to those real builds over HTTP. `SKIP_BUILD=1` reuses the last builds.
 */
import { spawn } from "node:child_process";
import { BUILDS } from "./builds.mjs";

/** Builds in flight at once, each in a process of its own: a build runs on one core. */
const LANES = 2;

/** One build, in a child process (the same call as `buildTarget(name)`); rejects if it fails. */
function buildInChild(name: string): Promise<void> {
  const script = `import(${JSON.stringify(new URL("./builds.mjs", import.meta.url).href)}).then((m) => m.buildTarget(${JSON.stringify(name)}))`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`the ${name} build failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

export default async function setup() {
  if (process.env.SKIP_BUILD === "1") return;
  const queue = Object.keys(BUILDS);
  const lane = async () => {
    for (let name = queue.shift(); name; name = queue.shift()) await buildInChild(name);
  };
  await Promise.all(Array.from({ length: LANES }, lane));
}
