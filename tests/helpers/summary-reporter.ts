/**
 * Ends the run with one line per program whose tests were skipped because it is missing (see
 * programs.mjs), then the "N passed, N failed" line CI reads in any language, always last.
 */
import type { Reporter, TestModule } from "vitest/node";

declare module "vitest" {
  interface TaskMeta {
    /** The missing program a skipped test needs, and how to install it. */
    needs?: string;
  }
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const skippedFor = new Map<string, number>();
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else if (state === "skipped") {
          skipped++;
          const needs = test.meta().needs;
          if (needs) skippedFor.set(needs, (skippedFor.get(needs) ?? 0) + 1);
        }
      }
    }
    const lines = [...skippedFor].map(
      ([needs, count]) => `skipped: ${count} ${count === 1 ? "test needs" : "tests need"} ${needs}`,
    );
    console.log(
      ["", ...lines, `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`].join("\n"),
    );
  }
}
