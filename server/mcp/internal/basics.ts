/** Encodings, plain objects and time, on web-standard APIs only: the same on every platform. */

/**
 * A JSON object: not null, not an array.
 * @example
 * if (!isPlainObject(mcp.params.inputResponses)) throw invalidParams("params.inputResponses must be an object");
 */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The members of `fields` that are set (not undefined, null or ""): a descriptor leaves out an optional member it lacks.
 * @example const descriptor = { name, ...presentFields({ title, icons }) }; // no `title` key when the tool has none
 */
export const presentFields = <Fields extends object>(fields: Fields): Partial<Fields> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value != null && value !== "")) as Partial<Fields>;

/**
 * Now, in whole seconds since the epoch: the unit of every expiry in this server.
 * @example const record = { value, expiresAt: nowSeconds() + ttlSeconds };
 */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * Waits `ms`, or less: it resolves as soon as `signal` fires.
 * @example await wait(1000, mcp.signal); // sooner if the client goes away
 */
export function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Small arrays of bytes are cut from a shared block, as Node's `Buffer` pool does: V8 allocates a typed array over 64 bytes
 * outside its heap, which costs more than the work done with it. A block is never reused: each array is memory of its own.
 */
const BLOCK_BYTES = 8192;
let block = new Uint8Array(0);
let used = 0;

/**
 * `length` zeroed bytes of their own. A short one shares its 8 KB buffer with other arrays (and keeps it alive): never use its
 * `.buffer` whole (other requests' bytes are there), and `slice()` it before transferring it or keeping it long.
 * @example const body = freshBytes(iv.length + sealed.length);
 */
export function freshBytes(length: number): Uint8Array<ArrayBuffer> {
  if (length > BLOCK_BYTES / 2) return new Uint8Array(length);
  if (used + length > block.length) {
    block = new Uint8Array(BLOCK_BYTES);
    used = 0;
  }
  used += length;
  return block.subarray(used - length, used);
}

/**
 * Text as UTF-8 bytes, an array of their own that short text cuts from a shared buffer (what `freshBytes` says holds).
 * @example const digest = await crypto.subtle.digest("SHA-256", utf8Encode(token));
 */
export function utf8Encode(text: string): Uint8Array<ArrayBuffer> {
  // A UTF-16 unit takes at most 3 bytes. `encodeInto` a block: on Node 20, `encode` takes several times longer.
  if (text.length * 3 > BLOCK_BYTES / 2) return encoder.encode(text);
  const room = freshBytes(text.length * 3);
  const { written } = encoder.encodeInto(text, room);
  // What the text did not take goes back, while the room is still the block's last cut.
  if (room.byteOffset + room.length === used) used -= room.length - written;
  return room.subarray(0, written);
}

/**
 * UTF-8 bytes as text. Throws on invalid UTF-8.
 * @example const text = utf8Decode(bytes); // bytes a client sent: catch what it throws
 */
export const utf8Decode = (bytes: Uint8Array): string => decoder.decode(bytes);

const STANDARD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** The value of each base64url character, -1 for anything else. */
const URL_SAFE_VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < URL_SAFE.length; i++) URL_SAFE_VALUES[URL_SAFE.charCodeAt(i)] = i;

/** Base64 by table (no binary strings, no regular expressions: this runs twice per requestState). */
function encodeBase64(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += alphabet[n >>> 18]! + alphabet[(n >>> 12) & 63]! + alphabet[(n >>> 6) & 63]! + alphabet[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) out += alphabet[bytes[i]! >>> 2]! + alphabet[(bytes[i]! & 3) << 4]! + (pad ? "==" : "");
  if (rest === 2) {
    const n = (bytes[i]! << 8) | bytes[i + 1]!;
    out += alphabet[n >>> 10]! + alphabet[(n >>> 4) & 63]! + alphabet[(n & 15) << 2]! + (pad ? "=" : "");
  }
  return out;
}

/**
 * Base64 with padding, as a resource's `blob` and a CSP hash want it.
 * @example return [{ uri, mimeType: "image/png", blob: base64Encode(bytes) }];
 */
export const base64Encode = (bytes: Uint8Array): string => encodeBase64(bytes, STANDARD, true);

/**
 * Base64url without padding: safe in a URL, a header and a storage key.
 * @example const id = base64UrlEncode(randomBytes(18)); // 24 characters
 */
export const base64UrlEncode = (bytes: Uint8Array): string => encodeBase64(bytes, URL_SAFE, false);

/**
 * Returns null for anything that is not canonical unpadded base64url (so one value has one spelling). The bytes are cut as
 * `freshBytes` cuts them.
 * @example const bytes = base64UrlDecode(cursor); // null: not a cursor this server issued
 */
export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> | null {
  const rest = text.length % 4;
  if (rest === 1) return null;
  const bytes = freshBytes(((text.length - rest) / 4) * 3 + (rest ? rest - 1 : 0));
  const value = (index: number) => URL_SAFE_VALUES[text.charCodeAt(index)] ?? -1;
  let written = 0;
  let i = 0;
  for (; i + 3 < text.length; i += 4) {
    // A character outside the alphabet is -1, which leaves the sign bit set.
    const n = (value(i) << 18) | (value(i + 1) << 12) | (value(i + 2) << 6) | value(i + 3);
    if (n < 0) return null;
    bytes[written++] = n >>> 16;
    bytes[written++] = (n >>> 8) & 255;
    bytes[written++] = n & 255;
  }
  if (rest) {
    const [a, b, c] = [value(i), value(i + 1), rest === 3 ? value(i + 2) : 0];
    // The unused low bits of the last character must be zero: otherwise two spellings decode alike.
    if ((a | b | c) < 0 || (rest === 2 ? b & 15 : c & 3)) return null;
    bytes[written++] = (a << 2) | (b >>> 4);
    if (rest === 3) bytes[written++] = ((b & 15) << 4) | (c >>> 2);
  }
  return bytes;
}

/** JSON with keys sorted at every depth: equal arguments give one digest whatever the client's key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  // Loops, not map and join: this runs on every state sealed or opened.
  const record = value as Record<string, unknown>;
  let out = "";
  if (Array.isArray(value)) for (const item of value) out += (out ? "," : "") + canonicalJson(item);
  else
    for (const key of Object.keys(record).sort())
      if (record[key] !== undefined) out += `${out ? "," : ""}${JSON.stringify(key)}:${canonicalJson(record[key])}`;
  return Array.isArray(value) ? `[${out}]` : `{${out}}`;
}
