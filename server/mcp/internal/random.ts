/** Random bytes from a pool refilled 4 KB at a time: each `crypto.getRandomValues` call costs microseconds on Node. */
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let offset = 0;

/**
 * `length` cryptographically random bytes.
 * @example const round = base64UrlEncode(randomBytes(12));
 */
export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  if (length > POOL_BYTES) return crypto.getRandomValues(new Uint8Array(length));
  if (offset + length > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES));
    offset = 0;
  }
  offset += length;
  return pool.slice(offset - length, offset);
}
