import { fileURLToPath } from "node:url";
import * as h3 from "h3";
import unimport from "unimport/unplugin";
import { defineConfig } from "vitest/config";

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
/** What a Nitro build provides at run time, for the in-process test server (tests/helpers/in-process.ts). */
const RUNTIME = root("tests/helpers/in-process-runtime.ts");

/**
 * The unit project runs the server's own files without a build: as Nitro does, the auto-imports (h3, the
 * helpers in utils/, useStorage…) become imports (unimport, Nitro's own engine), and the build's modules
 * (`nitropack/runtime`, `#mcp-*`) resolve to the Node build's choices or to the in-process stand-ins.
 */
const inProcess = {
  plugins: [
    unimport.vite({
      include: [/\/(?:server|routes|utils|tests\/fixtures|tests\/conformance\/fixtures)\/.*\.ts$/],
      exclude: [/\/node_modules\//],
      presets: [
        { from: "h3", imports: Object.keys(h3).filter((name) => !/^[A-Z]/.test(name) && name !== "use") },
        { from: RUNTIME, imports: ["useStorage", "useRuntimeConfig", "defineNitroPlugin"] },
      ],
      dirs: [root("utils/**/*")],
    }),
  ],
  resolve: {
    alias: [
      { find: /^nitropack\/runtime$/, replacement: RUNTIME },
      { find: /^#mcp-(?:definitions|skills|stores)$/, replacement: RUNTIME },
      { find: /^#mcp-platform$/, replacement: root("tests/helpers/in-process-platform.ts") },
    ],
  },
};

/**
 * Three projects:
 * - `unit`: no build, seconds (`npm run test:unit`);
 * - `e2e`: the real builds over HTTP (the global setup builds them once);
 * - `fork`: the proof that a fork without the examples or a feature still builds and passes its tests, on copies of the
 *   repository (`npm run test:fork`, minutes: `npm test` runs the other two, `.ci/run` runs both scripts).
 */
export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    reporters: ["default", "./tests/helpers/summary-reporter.ts"],
    // Most of an end-to-end file's time is spent waiting (on servers, back-offs, child processes), not computing: three files at
    // a time keep two cores busy (vitest's default on two cores is one at a time). Set for every project: vitest runs projects
    // with different values one after the other, and a command-line `--sequence.*` drops a project's own group order.
    maxWorkers: 3,
    // expect.poll waits for something that will happen (a log line, a stored record): a bound on "at all" that a loaded
    // machine cannot miss, not vitest's default of 1 s. Every project inherits it (`extends: true`).
    expect: { poll: { timeout: 15_000 } },
    projects: [
      {
        extends: true,
        ...inProcess,
        // One module cache per worker rather than per file: half the time of this tier. Safe, because each in-process server
        // loads the server's modules afresh (vi.resetModules), and tests put back what they change (timers, globals).
        // Many tests start an in-process server inside the test (a module graph loaded afresh: about a second, several on a busy
        // machine, as in the fork proof's two copies at once): a bound on "at all", not vitest's defaults of 5 s (a test) and
        // 10 s (a hook: a file's first server, started in beforeAll, also transforms the whole module graph).
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/**/*.test.ts"],
          // Replacing vitest's default exclude: node_modules stays out (tests/bench has its own).
          exclude: ["**/node_modules/**", "tests/unit/**", "tests/fork/**"],
          globalSetup: ["tests/helpers/build.ts"],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        // Two variants at a time, one per core of a small CI machine: each is a chain of builds and test runs.
        test: {
          name: "fork",
          include: ["tests/fork/**/*.test.ts"],
          testTimeout: 1_800_000,
          maxConcurrency: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
