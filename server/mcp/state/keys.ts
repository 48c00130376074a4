/**
 * The keys that seal `requestState`.
 *
 * Each secret is stretched with HKDF-SHA256 into an AES-256-GCM key and a short key id.
 * The key id travels in clear in every sealed state so that, after a rotation, the
 * server knows which key to try; it is derived with its own HKDF label, so it says
 * nothing about the key itself.
 */
import { base64UrlEncode, utf8Encode } from "../internal/encoding";

const MIN_SECRET_BYTES = 32;
const HKDF_SALT = utf8Encode("mcp-edge-template/request-state");

export interface StateKey {
  readonly kid: string;
  readonly key: CryptoKey;
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

async function deriveStateKey(secret: Uint8Array<ArrayBuffer>): Promise<StateKey> {
  const ikm = await crypto.subtle.importKey("raw", secret, "HKDF", false, ["deriveKey", "deriveBits"]);
  const hkdf = (label: string) => ({ name: "HKDF", hash: "SHA-256", salt: HKDF_SALT, info: utf8Encode(label) });
  const key = await crypto.subtle.deriveKey(hkdf("aes-256-gcm v1"), ikm, { name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
  const kid = base64UrlEncode(new Uint8Array(await crypto.subtle.deriveBits(hkdf("key id v1"), ikm, 48)));
  return { kid, key };
}

function secretBytes(secret: string, name: string): Uint8Array<ArrayBuffer> {
  const bytes = utf8Encode(secret);
  if (bytes.length < MIN_SECRET_BYTES) {
    // Never echo the secret, not even its first characters.
    throw new StateSecretError(
      `${name} is ${bytes.length} bytes long; it must be at least ${MIN_SECRET_BYTES} bytes. ` +
        "Generate one with: node -e \"console.log(crypto.randomBytes(32).toString('base64url'))\"",
    );
  }
  return bytes;
}

/**
 * Builds the key ring from configuration. Secrets are checked synchronously (a short one
 * throws `StateSecretError` before anything else happens); keys are derived asynchronously.
 *
 * @param secret the current secret (seals and opens); empty means none.
 * @param previous secrets from before a rotation (open only).
 * @param allowEphemeral with no secret, seal with a random per-process key (development only).
 */
export function createStateKeyRing(options: {
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
    const sealing = current ? await deriveStateKey(current) : null;
    const byKid = new Map<string, StateKey>();
    for (const key of await Promise.all(previous.map(deriveStateKey))) byKid.set(key.kid, key);
    if (sealing) byKid.set(sealing.kid, sealing);
    return { sealing, byKid };
  })();
}
