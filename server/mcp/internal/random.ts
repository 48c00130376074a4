/**
 * Cryptographically random bytes for the hot path (an IV and an id per sealed state): taken from a
 * pool that `crypto.getRandomValues` refills 4 KB at a time, since each call of it costs several
 * microseconds on Node whatever its size. Every byte is handed out once, and callers get a copy.
 */
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let offset = 0;

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  if (length > POOL_BYTES) return crypto.getRandomValues(new Uint8Array(length));
  if (offset + length > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES));
    offset = 0;
  }
  offset += length;
  return pool.slice(offset - length, offset);
}
