import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Three projects:
 * - `unit`: no build, seconds (`npm run test:unit`);
 * - `e2e`: the real builds over HTTP (the global setup builds them once);
 * - `fork`: last and alone, the proof that a fork without the examples still passes its tests.
 */
export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    reporters: ["default", "./tests/helpers/summary-reporter.ts"],
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
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
          // expect.poll waits for something that will happen (a log line, a stored record): a bound on
          // "at all" that a loaded machine cannot miss, not vitest's default of 1 s.
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        extends: true,
        test: { name: "fork", include: ["tests/fork/**/*.test.ts"], testTimeout: 1_800_000, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
