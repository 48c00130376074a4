/**
 * The requestState codec on its own: format, binding, clock skew, rotation — on every cipher
 * backend (`CIPHERS`: node:crypto for Node builds, and each platform's), which must be interchangeable:
 * a fleet in the middle of a rolling deploy, or mixing platforms, opens every state any of it sealed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  base64UrlDecode,
  base64UrlEncode,
  canonicalJson,
  freshBytes,
  utf8Encode,
} from "../../server/mcp/internal/basics";
import type { StateCipher } from "../../server/mcp/state/cipher";
import { stateCipher as nodeCipher } from "../../server/mcp/platform/node";
import { stateCipher as webCipher } from "../../server/cloudflare/platform";
import { openClaims, sealClaims, type OpenResult, type RequestBinding } from "../../server/mcp/state/codec";
import { createStateKeyRing, StateSecretError } from "../../server/mcp/state/keys";

const SECRET = "unit-secret-0123456789abcdef012345678";
const binding: RequestBinding = {
  principal: "alice",
  method: "tools/call",
  target: "delete_note",
  arguments: { note_id: "7", b: [1, 2] },
};
const ringOf = (cipher: StateCipher, secret = SECRET, previous: string[] = []) =>
  createStateKeyRing({ cipher, secret, previous, allowEphemeral: false });

/** Every cipher backend this checkout has: each platform's. */
const CIPHERS: [string, StateCipher][] = [["node:crypto", nodeCipher]];
// with:cloudflare
CIPHERS.push(["Web Crypto", webCipher]);
// end with:cloudflare

describe.each(CIPHERS)("requestState codec on %s", (_, cipher) => {
  const ring = () => ringOf(cipher);
  const open = async (token: unknown, bound = binding, now?: number) =>
    openClaims(await ring(), token, bound, { maxLength: 16384, now });

  it("round-trips the payload and binds it to the canonical arguments (key order does not matter)", async () => {
    const token = await sealClaims(await ring(), binding, { step: 2 }, { ttlSeconds: 60 });
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+$/);
    const reordered = { ...binding, arguments: { b: [1, 2], note_id: "7" } };
    const opened = await open(token, reordered);
    expect(opened.ok && opened.claims.data).toEqual({ step: 2 });
  });

  it("keeps the payload confidential: it is encrypted, not just signed", async () => {
    const token = await sealClaims(await ring(), binding, { secretStep: "visible?" }, { ttlSeconds: 60 });
    const body = atob(token.split(".")[2]!.replace(/-/g, "+").replace(/_/g, "/"));
    expect(body).not.toContain("secretStep");
  });

  it("opens a state only as it was spelled: not padded, not in standard base64, not with other unused bits or a stray character", async () => {
    // A body whose length leaves unused bits in its last character, and with a character the two alphabets spell apart.
    let token = "";
    for (let step = 0; !/^v1\.[^.]+\.(?=.*[-_])(?:.{4})*.{2,3}$/.test(token); step++) {
      token = await sealClaims(await ring(), binding, { step }, { ttlSeconds: 60 });
    }
    expect((await open(token)).ok).toBe(true);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = token.at(-1)!;
    const respelled = [
      token + "=".repeat(4 - ((token.length - 12) % 4)),
      token.slice(0, 12) + token.slice(12).replace(/-/g, "+").replace(/_/g, "/"),
      token.slice(0, -1) + alphabet[alphabet.indexOf(last) ^ 1],
      `${token.slice(0, 40)}!${token.slice(40)}`,
      `${token.slice(0, 40)}é${token.slice(40)}`,
      `${token.slice(0, 40)}\n${token.slice(40)}`,
    ];
    for (const other of respelled) {
      expect(await open(other)).toEqual({
        ok: false,
        reason: "authentication failed (tampered, or sealed for another request)",
      });
    }
  });

  it.each([
    ["another principal", { ...binding, principal: "bob" }, "sealed for another principal"],
    [
      "another argument value",
      { ...binding, arguments: { note_id: "8", b: [1, 2] } },
      "authentication failed (tampered, or sealed for another request)",
    ],
    [
      "another method",
      { ...binding, method: "prompts/get" },
      "authentication failed (tampered, or sealed for another request)",
    ],
  ])("refuses %s", async (_, other, reason) => {
    const token = await sealClaims(await ring(), binding, {}, { ttlSeconds: 60 });
    expect(await open(token, other)).toEqual({ ok: false, reason });
  });

  it("tolerates at most 5 s of clock skew on both ends", async () => {
    const now = 1_000_000;
    const token = await sealClaims(await ring(), binding, {}, { ttlSeconds: 60, now });
    expect((await open(token, binding, now + 65)).ok).toBe(true);
    expect(await open(token, binding, now + 66)).toEqual({ ok: false, reason: "expired" });
    expect((await open(token, binding, now - 5)).ok).toBe(true);
    expect(await open(token, binding, now - 6)).toEqual({ ok: false, reason: "issued in the future" });
  });

  it("checks the length before any crypto", async () => {
    expect(await openClaims(await ring(), `v1.AAAAAAAA.${"A".repeat(300)}`, binding, { maxLength: 256 })).toEqual({
      ok: false,
      reason: "longer than 256 characters",
    });
  });

  it("rejects secrets shorter than 32 bytes synchronously, naming no part of them", () => {
    expect(() => ringOf(cipher, "too-short")).toThrow(StateSecretError);
    expect(() => ringOf(cipher, SECRET, ["x"])).toThrow(/PREVIOUS entry is 1 bytes/);
  });

  it("opens with a previous key but never seals with it", async () => {
    const old = await ringOf(cipher, `old-${SECRET}`);
    const token = await sealClaims(old, binding, {}, { ttlSeconds: 60 });
    const rotated = await ringOf(cipher, SECRET, [`old-${SECRET}`]);
    expect((await openClaims(rotated, token, binding, { maxLength: 16384 })).ok).toBe(true);
    const fresh = await sealClaims(rotated, binding, {}, { ttlSeconds: 60 });
    expect(fresh.split(".")[1]).toBe(rotated.sealing!.kid);
    expect(fresh.split(".")[1]).not.toBe(old.sealing!.kid);
  });

  it("has no sealing key without a secret outside development", async () => {
    const none = await ringOf(cipher, "");
    expect(none.sealing).toBeNull();
    await expect(sealClaims(none, binding, {}, { ttlSeconds: 60 })).rejects.toThrow(/disabled/);
  });
});

/** Whether two arrays' bytes share any memory. */
const overlaps = (a: Uint8Array, b: Uint8Array) =>
  a.buffer === b.buffer &&
  a.length > 0 &&
  b.length > 0 &&
  a.byteOffset < b.byteOffset + b.length &&
  b.byteOffset < a.byteOffset + a.length;

describe("the cipher backends are interchangeable", () => {
  /** Sealed by the Web Crypto codec as it was before node:crypto existed: states already issued must keep opening. */
  const ISSUED_BEFORE = {
    kid: "oOiqx-Tj",
    token:
      "v1.oOiqx-Tj.j2XOmGN-ERiZu12KH1XFZAp-BAyrnpi0OnyLgh-PR3oOTWb36Ih0izluDfrO6GzrIz-Ig28bP8ONi5UNGTvYIjw3n3cJHhj-2CpkesutVAzLrhNgRTd4aaUnFHfGhqcRmXkNDTrEY71on86UGXRrUzJTWPMgFflips5ZUrBM2hj-v7M_pIX_Y9BuK2E",
    now: 1_800_000_010,
  };

  // with:cloudflare
  it.each([
    ["Web Crypto", "node:crypto", webCipher, nodeCipher],
    ["node:crypto", "Web Crypto", nodeCipher, webCipher],
  ])("a state sealed with %s opens with %s, and a changed byte fails on both", async (_, __, sealer, opener) => {
    const token = await sealClaims(await ringOf(sealer), binding, { step: 2, name: "Zoë" }, { ttlSeconds: 60 });
    const opened = await openClaims(await ringOf(opener), token, binding, { maxLength: 16384 });
    expect(opened.ok && opened.claims.data).toEqual({ step: 2, name: "Zoë" });
    const flipped = token.slice(0, 30) + (token[30] === "A" ? "B" : "A") + token.slice(31);
    for (const cipher of [sealer, opener]) {
      expect((await openClaims(await ringOf(cipher), flipped, binding, { maxLength: 16384 })).ok).toBe(false);
    }
  });
  // end with:cloudflare

  it.each(CIPHERS)("%s derives the same key id and opens a state issued before it existed", async (_, cipher) => {
    const ring = await ringOf(cipher);
    expect(ring.sealing!.kid).toBe(ISSUED_BEFORE.kid);
    const opened = await openClaims(ring, ISSUED_BEFORE.token, binding, {
      maxLength: 16384,
      now: ISSUED_BEFORE.now,
    });
    expect(opened.ok && opened.claims).toMatchObject({
      iat: 1_800_000_000,
      exp: 1_800_000_600,
      sub: "alice",
      data: { step: 2, name: "Zoë" },
    });
  });

  it("node:crypto opens a state at once, without a promise", async () => {
    const ring = await ringOf(nodeCipher);
    const token = await sealClaims(ring, binding, { step: 2 }, { ttlSeconds: 60 });
    const opened = openClaims(ring, token, binding, { maxLength: 16384 });
    expect(opened).not.toBeInstanceOf(Promise);
    expect((opened as OpenResult).ok).toBe(true);
  });

  it("node:crypto refuses a shortened tag", async () => {
    const token = await sealClaims(await ringOf(nodeCipher), binding, {}, { ttlSeconds: 60 });
    const [version, kid, body] = token.split(".");
    const bytes = Buffer.from(body!, "base64url");
    const shortened = `${version}.${kid}.${bytes.subarray(0, bytes.length - 4).toString("base64url")}`;
    expect(await openClaims(await ringOf(nodeCipher), shortened, binding, { maxLength: 16384 })).toEqual({
      ok: false,
      reason: "authentication failed (tampered, or sealed for another request)",
    });
  });
});

describe("the bytes a state is bound to", () => {
  it("canonical JSON is the same value, spelled alike whatever key order the client sent", () => {
    const reverseKeys = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value), (_, v) =>
        v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
      );
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value))); // JSON has no -0
        expect(canonicalJson(reverseKeys(value))).toBe(canonicalJson(value));
      }),
    );
    expect(canonicalJson({ b: { d: 1, c: [2, { f: 3, e: 4 }] }, a: undefined, "": [undefined, "x"] })).toBe(
      '{"":[null,"x"],"b":{"c":[2,{"e":4,"f":3}],"d":1}}',
    );
  });

  it("UTF-8 encoding gives TextEncoder's bytes for any text, short (cut from a shared block) or long, each in memory of its own", () => {
    const encoder = new TextEncoder();
    const made: [Uint8Array, Uint8Array][] = [];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "grapheme" }),
          // Any UTF-16 code units, lone surrogates included (each becomes U+FFFD, 3 bytes).
          fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }),
          fc.string({ unit: "binary", minLength: 1300, maxLength: 3000 }),
        ),
        fc.uint8Array({ maxLength: 90 }),
        (text, bytes) => {
          // Interleaved with the other arrays cut from the block: none may overlap another, however they come.
          made.push([utf8Encode(text), encoder.encode(text)]);
          made.push([base64UrlDecode(base64UrlEncode(bytes))!, bytes]);
          made.push([freshBytes(bytes.length), new Uint8Array(bytes.length)]);
        },
      ),
    );
    // Each still holds what it was made with, once every later one was cut and written.
    for (const [array, expected] of made) expect(array).toEqual(expected);
    expect(made.every(([array], index) => made.slice(index + 1).every(([other]) => !overlaps(array, other)))).toBe(
      true,
    );
  });

  it("base64url decodes exactly what it encodes, and nothing that is not canonical unpadded base64url", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(base64UrlDecode(base64UrlEncode(bytes))).toEqual(bytes);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."AQgw-_+/=. é"), maxLength: 40 }), (text) => {
        const bytes = base64UrlDecode(text);
        if (bytes) expect(base64UrlEncode(bytes)).toBe(text);
        else expect(Buffer.from(text, "base64url").toString("base64url")).not.toBe(text);
      }),
    );
  });
});
