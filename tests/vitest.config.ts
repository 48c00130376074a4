import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/helpers/build.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ["default", "./tests/helpers/summary-reporter.ts"],
  },
});
