/** Byte and text encodings on web-standard APIs only, so they run unchanged on Node, workerd and Vercel. */

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

export const utf8Encode = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text);
/** Throws on invalid UTF-8. */
export const utf8Decode = (bytes: Uint8Array): string => decoder.decode(bytes);

export function base64Encode(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary);
}

export const base64UrlEncode = (bytes: Uint8Array): string =>
  base64Encode(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Returns null for anything that is not canonical unpadded base64url (so one value has one spelling). */
export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return base64UrlEncode(bytes) === text ? bytes : null;
}

/**
 * JSON with object keys sorted at every depth, so two equal argument objects
 * always produce the same digest whatever order the client sent the keys in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
}

/** Compares two byte arrays in time that depends only on the length of the first (used on fixed-size digests). */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ (b[i % (b.length || 1)] ?? 0);
  return diff === 0;
}
