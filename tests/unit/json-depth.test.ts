/** The nesting check every body passes before it is parsed into the rest of the server: exact on any JSON, strings skipped. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nestsDeeperThan } from "../../server/mcp/protocol";

/** The depth of a parsed value: 0 for a scalar, 1 for a flat array or object. */
const depthOf = (value: unknown): number =>
  value !== null && typeof value === "object"
    ? 1 + Math.max(0, ...Object.values(value as Record<string, unknown>).map(depthOf))
    : 0;

/** Strings full of what the check must step over: quotes, backslashes and brackets, escaped any which way. */
const tricky = fc.string({ unit: fc.constantFrom('"', "\\", "[", "]", "{", "}", "a", "\\\\", '\\"') });
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, tricky, fc.integer(), fc.constant(null), tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 4 }),
  object: fc.dictionary(tricky, tie("value"), { maxKeys: 4 }),
})).value;

describe("nestsDeeperThan", () => {
  it("agrees with the depth of the parsed value, whatever the strings hold (seeded)", () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 0, max: 6 }), (value, limit) => {
        expect(nestsDeeperThan(JSON.stringify(value), limit)).toBe(depthOf(value) > limit);
      }),
      { seed: 20261201, numRuns: 2000 },
    );
  });

  it("finds the depth past a long string and past escaped quotes and backslashes", () => {
    const deep = (depth: number, inner: string) => `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`;
    expect(nestsDeeperThan(deep(3, JSON.stringify("x".repeat(100_000))), 2)).toBe(true);
    expect(nestsDeeperThan(`[${JSON.stringify('\\"[[[[')}]`, 1)).toBe(false);
    expect(nestsDeeperThan(`[${JSON.stringify("\\\\")},[[]]]`, 2)).toBe(true);
    expect(nestsDeeperThan(deep(64, "0"), 64)).toBe(false);
    expect(nestsDeeperThan(deep(65, "0"), 64)).toBe(true);
  });
});
