/**
 * The builds the tests run against, made with Nitro's own API (what `nitropack build` does):
 *
 * - `product`: `npm run build` as a user runs it (the examples, no test fixtures), in `.output`;
 * - `fixtures`, `fixtures-<target>`: the same server plus the test fixtures
 *   (`tests/fixtures`) for each deploy target. Extra scan dirs are how fixtures get in: Nitro reads
 *   routes, plugins and utils from every scan dir, and the definitions module reads tools, prompts
 *   and resources from them, so the product's `nitro.config.ts` has no test switch;
 * - `conformance`: the core with the conformance suite's fixtures alone (`tests/conformance/fixtures`),
 *   whose names (`greet`…) are the suite's and must not meet the examples or a fork's tools.
 *
 * Plain JS with JSDoc types: the vitest global setup and the conformance runner both use it.
 */
import { build, copyPublicAssets, createNitro, prepare, prerender } from "nitropack/core";
import { untaggedHooks } from "../../server/build/untagged-hooks.mjs";

const ROOT = new URL("../..", import.meta.url).pathname;
const FIXTURE_DIRS = ["tests/fixtures"];
const CONFORMANCE_DIRS = ["tests/conformance/fixtures"];

/** @typedef {{ preset?: string, scanDirs?: string[], definitionDirs?: string[], output?: string, rootDir?: string }} BuildSpec */

/** @type {Record<string, BuildSpec>} */
export const BUILDS = {
  product: {},
  fixtures: { scanDirs: FIXTURE_DIRS, output: ".output-fixtures" },
  // with:cloudflare
  "fixtures-cloudflare": {
    scanDirs: FIXTURE_DIRS,
    preset: "cloudflare-durable",
    output: ".output-fixtures-cloudflare",
  },
  // end with:cloudflare
  "fixtures-vercel": { scanDirs: FIXTURE_DIRS, preset: "vercel", output: ".output-fixtures-vercel" },
  conformance: { scanDirs: CONFORMANCE_DIRS, definitionDirs: CONFORMANCE_DIRS, output: ".output-conformance" },
};

/**
 * The benchmark's builds (`npm run bench` makes them): the server plus the benchmark's own tools
 * (outside tests/bench, whose own node_modules would otherwise give them a second zod), and the floor of any Nitro app — a project of its own (no nitro.config.ts, one route) built
 * with this project's nitropack.
 */
/** @type {Record<string, BuildSpec>} */
export const BENCH_BUILDS = {
  bench: { scanDirs: ["tests/fixtures-bench"], output: ".output-bench" },
  "nitro-floor": { rootDir: "tests/bench/contenders/nitro-floor", output: ".output-nitro-floor" },
};

/** Builds one entry of BUILDS or BENCH_BUILDS; the output folder is its `output` (or `.output`). */
export async function buildTarget(name) {
  const spec = BUILDS[name] ?? BENCH_BUILDS[name];
  if (!spec) throw new Error(`unknown build ${name}`);
  const overrides = spec.output
    ? {
        // The floor's own chunk is all node_modules, whose source maps Nitro would empty: profile.mjs maps its samples too.
        // The floor calls Nitro's hooks as the template does (server/build/untagged-hooks.mjs): what it saves is Nitro's, not MCP's.
        ...(spec.rootDir
          ? {
              compatibilityDate: "2026-07-28",
              experimental: { sourcemapMinify: false },
              rollupConfig: { plugins: [untaggedHooks] },
            }
          : { scanDirs: spec.scanDirs }),
        output: { dir: `${ROOT}${spec.output}` },
        buildDir: `${ROOT}.nitro/${name}`,
        ...(spec.definitionDirs ? { mcp: { definitionDirs: spec.definitionDirs } } : {}),
      }
    : {};
  const rootDir = spec.rootDir ? `${ROOT}${spec.rootDir}` : ROOT;
  const nitro = await createNitro({ rootDir, dev: false, preset: spec.preset, logLevel: 1, ...overrides });
  await prepare(nitro);
  await copyPublicAssets(nitro);
  await prerender(nitro);
  await build(nitro);
  await nitro.close();
}
