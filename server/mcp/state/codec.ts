/**
 * The `requestState` codec: AES-256-GCM sealed claims, bound to a principal, a request and an expiry.
 * Wire format: `v1.<kid>.<base64url(iv ‖ ciphertext ‖ tag)>`. The additional authenticated data is `v1.<kid>` plus the canonical
 * request (method, target, arguments): the request is authenticated without being stored, so a state presented on another request
 * fails like a forged one, and sealing or opening costs one cipher call (`cipher.ts`: Web Crypto or `node:crypto`). The client may
 * send anything back: `openClaims` returns a reason for the server log, and the caller answers every failure alike (opaque).
 */
import { base64UrlEncode, canonicalJson, isPlainObject, nowSeconds } from "../internal/basics";
import { randomBytes } from "../internal/random";
import type { StateKeyRing } from "./keys";

const VERSION = "v1";
const ID_BYTES = 16;
/** The version and key id; the cipher checks the rest, base64url, as it decodes it. */
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

// One answer for every state that does not open, frozen: it is shared.
const UNAUTHENTICATED: OpenResult = Object.freeze({
  ok: false,
  reason: "authentication failed (tampered, or sealed for another request)",
});

/** The authenticated data: the format and key, and the request the state belongs to (key order does not matter). */
const additionalData = (kid: string, binding: RequestBinding) =>
  `${VERSION}.${kid}\n${canonicalJson([binding.method, binding.target, binding.arguments ?? {}])}`;

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
  const claims: StateClaims = {
    iat,
    exp: iat + options.ttlSeconds,
    sub: binding.principal,
    jti: base64UrlEncode(randomBytes(ID_BYTES)),
    data,
  };
  const sealed = await sealing.key.seal(additionalData(sealing.kid, binding), JSON.stringify(claims));
  return `${VERSION}.${sealing.kid}.${sealed}`;
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
 * crypto), version and key id, the base64url body and tag (which also covers the request binding), claims, expiry, principal.
 * Answers at once when the cipher does (`node:crypto`). Single-use redemption is the caller's job.
 */
export function openClaims(
  ring: StateKeyRing,
  token: unknown,
  binding: RequestBinding,
  options: { maxLength: number; now?: number },
): OpenResult | Promise<OpenResult> {
  if (typeof token !== "string") return { ok: false, reason: "not a string" };
  if (token.length > options.maxLength) return { ok: false, reason: `longer than ${options.maxLength} characters` };
  const head = HEAD.exec(token);
  if (!head) return { ok: false, reason: "malformed" };
  const key = ring.byKid.get(head[1]!);
  if (!key) return { ok: false, reason: "unknown key id" };
  try {
    const plain = key.key.open(token.slice(head[0].length), additionalData(key.kid, binding));
    const now = options.now ?? nowSeconds();
    if (typeof plain === "string") return verifyClaims(JSON.parse(plain), binding, now);
    return plain.then((text) => verifyClaims(JSON.parse(text), binding, now)).catch(() => UNAUTHENTICATED);
  } catch {
    return UNAUTHENTICATED;
  }
}

/** The checks after the tag's: what was sealed is claims, and they hold now for this principal. */
function verifyClaims(claims: unknown, binding: RequestBinding, now: number): OpenResult {
  if (!isClaims(claims)) return { ok: false, reason: "malformed claims" };
  if (claims.iat > now + CLOCK_SKEW_SECONDS) return { ok: false, reason: "issued in the future" };
  if (now > claims.exp + CLOCK_SKEW_SECONDS) return { ok: false, reason: "expired" };
  if (claims.sub !== binding.principal) return { ok: false, reason: "sealed for another principal" };
  return { ok: true, claims };
}
