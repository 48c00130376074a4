/**
 * HKDF-SHA256 and AES-256-GCM for `requestState` (`#mcp-state-cipher`), two backends giving the same bytes: `cipher.web.ts` (Web Crypto)
 * and `cipher.node.ts` (synchronous: on Node each Web Crypto call is a thread-pool round trip, several times the cipher cost).
 */

/** An AES-256-GCM key, with a 96-bit IV and a 128-bit tag. */
export interface AesGcmKey {
  /** The ciphertext followed by the tag. */
  seal(
    iv: Uint8Array<ArrayBuffer>,
    additionalData: Uint8Array<ArrayBuffer>,
    plaintext: Uint8Array<ArrayBuffer>,
  ): Uint8Array | Promise<Uint8Array>;
  /** The plaintext; throws when the tag does not verify (a changed byte, another key, other additional data). */
  open(
    iv: Uint8Array<ArrayBuffer>,
    additionalData: Uint8Array<ArrayBuffer>,
    sealed: Uint8Array<ArrayBuffer>,
  ): Uint8Array | Promise<Uint8Array>;
}

export interface StateCipher {
  readonly name: string;
  /** HKDF-SHA256 (RFC 5869): `length` bytes of key material for `info`. */
  hkdf(
    secret: Uint8Array<ArrayBuffer>,
    salt: Uint8Array<ArrayBuffer>,
    info: string,
    length: number,
  ): Uint8Array | Promise<Uint8Array>;
  /** A non-extractable AES-256-GCM key from 32 raw bytes. */
  aesGcmKey(raw: Uint8Array<ArrayBuffer>): AesGcmKey | Promise<AesGcmKey>;
}
