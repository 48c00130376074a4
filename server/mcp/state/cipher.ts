/**
 * HKDF-SHA256 and AES-256-GCM for `requestState` (each platform's `stateCipher`, from `#mcp-platform`), every backend giving
 * the same bytes: Node's is synchronous `node:crypto` (on Node each Web Crypto call is a thread-pool round trip, several
 * times the cipher cost); a platform without it uses Web Crypto.
 */

type Bytes = Uint8Array<ArrayBuffer>;

/** An AES-256-GCM key, with a 96-bit IV and a 128-bit tag. */
export interface AesGcmKey {
  /** The ciphertext followed by the tag. */
  seal(iv: Bytes, additionalData: Bytes, plaintext: Bytes): Uint8Array | Promise<Uint8Array>;
  /** The plaintext; throws when the tag does not verify (a changed byte, another key, other additional data). */
  open(iv: Bytes, additionalData: Bytes, sealed: Bytes): Uint8Array | Promise<Uint8Array>;
}

export interface StateCipher {
  /** HKDF-SHA256 (RFC 5869): `length` bytes of key material for `info`. */
  hkdf(secret: Bytes, salt: Bytes, info: string, length: number): Uint8Array | Promise<Uint8Array>;
  /** A non-extractable AES-256-GCM key from 32 raw bytes. */
  aesGcmKey(raw: Bytes): AesGcmKey | Promise<AesGcmKey>;
}
