/**
 * The keys that seal `requestState`: HKDF-SHA256 makes each secret an AES-256-GCM key and a key id, sent in clear so that
 * after a rotation the server knows which key to try (its own HKDF label keeps it from saying anything about the key).
 */
import { base64UrlEncode } from "../internal/basics";
import type { AesGcmKey, StateCipher } from "./cipher";

const MIN_SECRET_BYTES = 32;
// Kept for the process: buffers of their own (a cut of the shared block would keep the whole block, beside other bytes).
const encoder = new TextEncoder();
const HKDF_SALT = encoder.encode("mcp-edge-template/request-state");

export interface StateKey {
  readonly kid: string;
  readonly key: AesGcmKey;
}

export interface StateKeyRing {
  /** The key new states are sealed with; null when sealing is disabled (production without a secret). */
  readonly sealing: StateKey | null;
  /** Every key that may open a state: the sealing key and the previous ones. */
  readonly byKid: ReadonlyMap<string, StateKey>;
}

export class StateSecretError extends Error {
  override name = "StateSecretError";
}

async function deriveStateKey(cipher: StateCipher, secret: Uint8Array<ArrayBuffer>): Promise<StateKey> {
  const raw = new Uint8Array(await cipher.hkdf(secret, HKDF_SALT, "aes-256-gcm v1", 32));
  const kid = base64UrlEncode(await cipher.hkdf(secret, HKDF_SALT, "key id v1", 6));
  return { kid, key: await cipher.aesGcmKey(raw) };
}

function secretBytes(secret: string, name: string): Uint8Array<ArrayBuffer> {
  const bytes = encoder.encode(secret);
  if (bytes.length < MIN_SECRET_BYTES) {
    // Never echo the secret, not even its first characters.
    throw new StateSecretError(
      `${name} is ${bytes.length} bytes long; it must be at least ${MIN_SECRET_BYTES} bytes. ` +
        "Generate one with: node -e \"console.log(crypto.randomBytes(32).toString('base64url'))\"",
    );
  }
  return bytes;
}

/** Keys of `secret` (seals; empty: none, random if `allowEphemeral`) and `previous` (open only); a short secret throws before any await. */
export function createStateKeyRing(options: {
  cipher: StateCipher;
  secret: string;
  previous: readonly string[];
  allowEphemeral: boolean;
}): Promise<StateKeyRing> {
  const previous = options.previous.map((value) => secretBytes(value, "NITRO_MCP_STATE_SECRET_PREVIOUS entry"));
  const current = options.secret
    ? secretBytes(options.secret, "NITRO_MCP_STATE_SECRET")
    : options.allowEphemeral
      ? crypto.getRandomValues(new Uint8Array(32))
      : null;
  return (async () => {
    const sealing = current ? await deriveStateKey(options.cipher, current) : null;
    const older = await Promise.all(previous.map((secret) => deriveStateKey(options.cipher, secret)));
    const byKid = new Map([...older, ...(sealing ? [sealing] : [])].map((key) => [key.kid, key]));
    return { sealing, byKid };
  })();
}
