/**
 * HKDF-SHA256 and AES-256-GCM for `requestState` (each platform's `stateCipher`, from `#mcp-platform`), every backend giving
 * the same bytes: Node's is synchronous `node:crypto` (on Node each Web Crypto call is a thread-pool round trip, several
 * times the cipher cost); a platform without it uses Web Crypto.
 */

type Bytes = Uint8Array<ArrayBuffer>;

/**
 * An AES-256-GCM key, with a random 96-bit IV and a 128-bit tag. Text in, text out: the sealed bytes travel as unpadded
 * base64url, the additional data and plaintext as UTF-8, so each backend converts with its platform's fastest code.
 */
export interface AesGcmKey {
  /** base64url(iv ‖ ciphertext ‖ tag) of `plaintext`, under a fresh random IV. */
  seal(additionalData: string, plaintext: string): string | Promise<string>;
  /** The plaintext; throws when `sealed` is not the base64url `seal` gives, or its tag does not verify (a changed byte, another key, other additional data). */
  open(sealed: string, additionalData: string): string | Promise<string>;
}

export interface StateCipher {
  /** HKDF-SHA256 (RFC 5869): `length` bytes of key material for `info`. */
  hkdf(secret: Bytes, salt: Bytes, info: string, length: number): Uint8Array | Promise<Uint8Array>;
  /** A non-extractable AES-256-GCM key from 32 raw bytes. */
  aesGcmKey(raw: Bytes): AesGcmKey | Promise<AesGcmKey>;
}
