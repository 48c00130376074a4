/**
 * Global setup of the end-to-end tests: build the product and the fixture builds once (see
 * builds.mjs); the suites then talk to those real builds over HTTP. `SKIP_BUILD=1` reuses the last builds.
 */
import { BUILDS, buildTarget } from "./builds.mjs";

export default async function setup() {
  if (process.env.SKIP_BUILD === "1") return;
  for (const name of Object.keys(BUILDS)) await buildTarget(name);
}
