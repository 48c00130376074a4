/** The request log's line: its numbers as JavaScript prints them, its path without the query. */
import fc from "fast-check";
import type { H3Event } from "h3";
import { describe, expect, it } from "vitest";
import { requestLogMembers, twoDecimals } from "../../server/features/observability/plugins/observability";

describe("twoDecimals", () => {
  it("prints any duration exactly as Math.round(ms * 100) / 100 prints it", () => {
    const reference = (ms: number) => String(Math.round(ms * 100) / 100);
    for (const ms of [0, 0.004, 0.005, 0.05, 0.1, 0.99, 0.995, 1, 1.005, 1.1, 1.01, 10.2, 99.999, 1234.5678])
      expect(twoDecimals(ms)).toBe(reference(ms));
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e9, noNaN: true }), (ms) => {
        expect(twoDecimals(ms)).toBe(reference(ms));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("requestLogMembers", () => {
  const line = (path: string, durationMs: number) =>
    JSON.parse(
      `{${requestLogMembers({ method: "POST", path, context: {} } as H3Event, { status: 200 }, durationMs, false)}}`,
    );

  it("writes the path without its query, and the duration as a number", () => {
    expect(line("/mcp?token=secret", 12.345)).toEqual({ http: "POST /mcp", status: 200, durationMs: 12.35 });
    expect(line("/mcp", 0.1)).toEqual({ http: "POST /mcp", status: 200, durationMs: 0.1 });
  });
});
