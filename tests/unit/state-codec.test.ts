/** The requestState codec on its own: format, binding, clock skew, rotation. */
import { describe, expect, it } from "vitest";
import { openRequestState, sealRequestState, type RequestBinding } from "../../server/mcp/state/codec";
import { createStateKeyRing, StateSecretError } from "../../server/mcp/state/keys";

const SECRET = "unit-secret-0123456789abcdef012345678";
const binding: RequestBinding = { principal: "alice", method: "tools/call", target: "delete_note", arguments: { note_id: "7", b: [1, 2] } };
const ring = () => createStateKeyRing({ secret: SECRET, previous: [], allowEphemeral: false });
const open = async (token: unknown, bound = binding, now?: number) =>
  openRequestState(await ring(), token, bound, { maxLength: 16384, now });

describe("requestState codec", () => {
  it("round-trips the payload and binds it to the canonical arguments (key order does not matter)", async () => {
    const token = await sealRequestState(await ring(), binding, { step: 2 }, { ttlSeconds: 60 });
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+$/);
    const reordered = { ...binding, arguments: { b: [1, 2], note_id: "7" } };
    const opened = await open(token, reordered);
    expect(opened.ok && opened.claims.data).toEqual({ step: 2 });
  });

  it("keeps the payload confidential: it is encrypted, not just signed", async () => {
    const token = await sealRequestState(await ring(), binding, { secretStep: "visible?" }, { ttlSeconds: 60 });
    const body = atob(token.split(".")[2]!.replace(/-/g, "+").replace(/_/g, "/"));
    expect(body).not.toContain("secretStep");
  });

  it.each([
    ["another principal", { ...binding, principal: "bob" }, "sealed for another principal"],
    ["another argument value", { ...binding, arguments: { note_id: "8", b: [1, 2] } }, "authentication failed (tampered, or sealed for another request)"],
    ["another method", { ...binding, method: "prompts/get" }, "authentication failed (tampered, or sealed for another request)"],
  ])("refuses %s", async (_, other, reason) => {
    const token = await sealRequestState(await ring(), binding, {}, { ttlSeconds: 60 });
    expect(await open(token, other)).toEqual({ ok: false, reason });
  });

  it("tolerates at most 5 s of clock skew on both ends", async () => {
    const now = 1_000_000;
    const token = await sealRequestState(await ring(), binding, {}, { ttlSeconds: 60, now });
    expect((await open(token, binding, now + 65)).ok).toBe(true);
    expect(await open(token, binding, now + 66)).toEqual({ ok: false, reason: "expired" });
    expect((await open(token, binding, now - 5)).ok).toBe(true);
    expect(await open(token, binding, now - 6)).toEqual({ ok: false, reason: "issued in the future" });
  });

  it("checks the length before any crypto", async () => {
    expect(await openRequestState(await ring(), "v1.AAAAAAAA." + "A".repeat(300), binding, { maxLength: 256 })).toEqual({
      ok: false,
      reason: "longer than 256 characters",
    });
  });

  it("rejects secrets shorter than 32 bytes synchronously, naming no part of them", () => {
    expect(() => createStateKeyRing({ secret: "too-short", previous: [], allowEphemeral: false })).toThrow(StateSecretError);
    expect(() => createStateKeyRing({ secret: SECRET, previous: ["x"], allowEphemeral: false })).toThrow(/PREVIOUS entry is 1 bytes/);
  });

  it("opens with a previous key but never seals with it", async () => {
    const old = await createStateKeyRing({ secret: "old-" + SECRET, previous: [], allowEphemeral: false });
    const token = await sealRequestState(old, binding, {}, { ttlSeconds: 60 });
    const rotated = await createStateKeyRing({ secret: SECRET, previous: ["old-" + SECRET], allowEphemeral: false });
    expect((await openRequestState(rotated, token, binding, { maxLength: 16384 })).ok).toBe(true);
    const fresh = await sealRequestState(rotated, binding, {}, { ttlSeconds: 60 });
    expect(fresh.split(".")[1]).toBe(rotated.sealing!.kid);
    expect(fresh.split(".")[1]).not.toBe(old.sealing!.kid);
  });

  it("has no sealing key without a secret outside development", async () => {
    const none = await createStateKeyRing({ secret: "", previous: [], allowEphemeral: false });
    expect(none.sealing).toBeNull();
    await expect(sealRequestState(none, binding, {}, { ttlSeconds: 60 })).rejects.toThrow(/disabled/);
  });
});
