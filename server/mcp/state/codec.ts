/**
 * The `requestState` codec: AES-256-GCM sealed claims, bound to a principal, a request and an expiry.
 * Wire format: `v1.<kid>.<base64url(iv ‖ ciphertext ‖ tag)>`. The additional authenticated data is `v1.<kid>` plus the canonical
 * request (method, target, arguments): the request is authenticated without being stored, so a state presented on another request
 * fails like a forged one, and sealing or opening costs one cipher call (`cipher.ts`: Web Crypto or `node:crypto`). The client may
 * send anything back: `openClaims` returns a reason for the server log, and the caller answers every failure alike (opaque).
 */
import {
  base64UrlDecode,
  base64UrlEncode,
  canonicalJson,
  freshBytes,
  isPlainObject,
  nowSeconds,
  utf8Decode,
  utf8Encode,
} from "../internal/basics";
import { randomBytes } from "../internal/random";
import type { StateKeyRing } from "./keys";

const VERSION = "v1";
const IV_BYTES = 12;
const ID_BYTES = 16;
const TAG_BYTES = 16;
/** The version and key id; the rest, base64url, is checked as it is decoded. */
const HEAD = /^v1\.([A-Za-z0-9_-]{8})\./;
/** Tolerated clock difference between instances, in seconds. */
const CLOCK_SKEW_SECONDS = 5;

/** What a state is bound to: who asked, and which request it continues. */
export interface RequestBinding {
  readonly principal: string;
  readonly method: string;
  /** Tool or prompt name, or resource URI. */
  readonly target: string;
  /** The request's arguments (tools/call, prompts/get); undefined for resources/read. */
  readonly arguments: unknown;
}

export interface StateClaims {
  /** Issued at, expires at: seconds since the epoch. */
  readonly iat: number;
  readonly exp: number;
  readonly sub: string;
  /** Random id: the key for single-use redemption. */
  readonly jti: string;
  readonly data: Record<string, unknown>;
}

export type OpenResult = { ok: true; claims: StateClaims } | { ok: false; reason: string };

/** The authenticated data: the format and key, and the request the state belongs to (key order does not matter). */
const additionalData = (kid: string, binding: RequestBinding) =>
  utf8Encode(`${VERSION}.${kid}\n${canonicalJson([binding.method, binding.target, binding.arguments ?? {}])}`);

/**
 * Seals `data` for the request described by `binding`.
 * @example
 * const state = await sealClaims(ring, { principal, method: "tools/call", target: "wizard", arguments: {} }, { step: 2 }, { ttlSeconds: 600 });
 */
export async function sealClaims(
  ring: StateKeyRing,
  binding: RequestBinding,
  data: Record<string, unknown>,
  options: { ttlSeconds: number; now?: number },
): Promise<string> {
  const sealing = ring.sealing;
  if (!sealing) throw new Error("requestState sealing is disabled: no NITRO_MCP_STATE_SECRET");
  const iat = options.now ?? nowSeconds();
  const random = randomBytes(IV_BYTES + ID_BYTES);
  const iv = random.subarray(0, IV_BYTES);
  const claims: StateClaims = {
    iat,
    exp: iat + options.ttlSeconds,
    sub: binding.principal,
    jti: base64UrlEncode(random.subarray(IV_BYTES)),
    data,
  };
  const sealed = await sealing.key.seal(iv, additionalData(sealing.kid, binding), utf8Encode(JSON.stringify(claims)));
  const body = freshBytes(IV_BYTES + sealed.byteLength);
  body.set(iv);
  body.set(sealed, IV_BYTES);
  return `${VERSION}.${sealing.kid}.${base64UrlEncode(body)}`;
}

const isClaims = (value: unknown): value is StateClaims =>
  isPlainObject(value) &&
  Number.isInteger(value.iat) &&
  Number.isInteger(value.exp) &&
  typeof value.sub === "string" &&
  typeof value.jti === "string" &&
  isPlainObject(value.data);

/**
 * Opens and verifies a state presented by a client; never throws for bad input. Checks, in order: type and size (before any
 * crypto), version and key id, the base64url body, tag (which also covers the request binding), claims, expiry, principal.
 * Single-use redemption is the caller's job.
 */
export async function openClaims(
  ring: StateKeyRing,
  token: unknown,
  binding: RequestBinding,
  options: { maxLength: number; now?: number },
): Promise<OpenResult> {
  if (typeof token !== "string") return { ok: false, reason: "not a string" };
  if (token.length > options.maxLength) return { ok: false, reason: `longer than ${options.maxLength} characters` };
  const head = HEAD.exec(token);
  if (!head) return { ok: false, reason: "malformed" };
  const key = ring.byKid.get(head[1]!);
  if (!key) return { ok: false, reason: "unknown key id" };
  const body = base64UrlDecode(token.slice(head[0].length));
  if (!body || body.length < IV_BYTES + TAG_BYTES + 2) return { ok: false, reason: "malformed" };

  let claims: unknown;
  try {
    const authenticated = additionalData(key.kid, binding);
    // Node's cipher answers at once: a promise is awaited, not a value (a microtask fewer).
    const plain = key.key.open(body.subarray(0, IV_BYTES), authenticated, body.subarray(IV_BYTES));
    claims = JSON.parse(utf8Decode(plain instanceof Promise ? await plain : plain));
  } catch {
    return { ok: false, reason: "authentication failed (tampered, or sealed for another request)" };
  }
  if (!isClaims(claims)) return { ok: false, reason: "malformed claims" };

  const now = options.now ?? nowSeconds();
  if (claims.iat > now + CLOCK_SKEW_SECONDS) return { ok: false, reason: "issued in the future" };
  if (now > claims.exp + CLOCK_SKEW_SECONDS) return { ok: false, reason: "expired" };
  if (claims.sub !== binding.principal) return { ok: false, reason: "sealed for another principal" };
  return { ok: true, claims };
}
