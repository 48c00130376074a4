/**
 * The state secret where the runtime matters: a built server stops at start-up on a bad one. Every rule
 * about requestState itself (tampering, replays, expiry, principals, instances, key rotation) is tested
 * in-process, in tests/unit/protocol/request-state.test.ts.
 */
import { describe, expect, it } from "vitest";
import { startServerExpectingFailure } from "../helpers/server.mjs";

describe("secret configuration", () => {
  it("stops at start-up on a secret shorter than 32 bytes, without printing it", async () => {
    const { code, output } = await startServerExpectingFailure({ NITRO_MCP_STATE_SECRET: "short-secret-value" });
    expect(code).not.toBe(0);
    expect(output).toMatch(/NITRO_MCP_STATE_SECRET is 18 bytes long; it must be at least 32 bytes/);
    expect(output).not.toContain("short-secret-value");
  });
});
