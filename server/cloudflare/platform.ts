/**
 * `#mcp-platform` on Workers (the Cloudflare build points the alias here: `module.ts`): the client's address from
 * `CF-Connecting-IP` (set by Cloudflare, never by the client), the scheme from the Worker's own request URL (Nitro's entry
 * tells h3's request mock the protocol in a form it misreads), the body as `entry.ts` read it within its bounds, a timer per
 * deadline, Web Crypto's cipher, and one console call per log line (Workers Logs reads each call as one entry).
 */
import type { H3Event } from "h3";
import { BodyTooLargeError, type BodyLimits } from "../mcp/http/body";
import type { LogLevel } from "../mcp/log";
import { base64UrlDecode, base64UrlEncode, freshBytes, utf8Decode, utf8Encode } from "../mcp/internal/basics";
import { requestHeader } from "../mcp/protocol";
import { randomBytes } from "../mcp/internal/random";
import type { StateCipher } from "../mcp/state/cipher";

export const peerAddress = (event: H3Event): string | undefined => requestHeader(event, "cf-connecting-ip");

export const peerScheme = (event: H3Event): "http" | "https" =>
  (event.context as { cloudflare?: { url?: URL } }).cloudflare?.url?.protocol === "https:" ? "https" : "http";

const decoder = new TextDecoder();

/** The body Nitro's entry buffered (after `entry.ts` bounded it in size and time): whole already, so it holds no share. */
export async function readBodyText(event: H3Event, limits: BodyLimits): Promise<string> {
  const body = (event.node.req as { body?: Uint8Array | null }).body;
  if (body && body.byteLength > limits.maxBytes) throw new BodyTooLargeError(limits.maxBytes, true);
  return body ? decoder.decode(body) : "";
}

/**
 * Calls `expire` once `ms` have passed, unless the returned function is called first: one timer each, which ends with the
 * request that set it.
 */
export function setDeadline(ms: number, expire: () => void): () => void {
  const timer = setTimeout(expire, ms);
  return () => clearTimeout(timer);
}

export const openLineWriters = (): Record<LogLevel, (line: string) => void> => ({
  debug: (line) => console.debug(line),
  info: (line) => console.info(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
});

/** A sealed state's bytes: the IV, the ciphertext, the tag (as `node:crypto`'s cipher lays them out). */
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The state cipher on Web Crypto. */
export const stateCipher: StateCipher = {
  async hkdf(secret, salt, info, length) {
    const material = await crypto.subtle.importKey("raw", secret, "HKDF", false, ["deriveBits"]);
    const params = { name: "HKDF", hash: "SHA-256", salt, info: utf8Encode(info) };
    return new Uint8Array(await crypto.subtle.deriveBits(params, material, length * 8));
  },
  async aesGcmKey(raw) {
    const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    return {
      async seal(additionalData, plaintext) {
        const iv = randomBytes(IV_BYTES);
        const params = { name: "AES-GCM", iv, additionalData: utf8Encode(additionalData) };
        const sealed = new Uint8Array(await crypto.subtle.encrypt(params, key, utf8Encode(plaintext)));
        const bytes = freshBytes(IV_BYTES + sealed.length);
        bytes.set(iv);
        bytes.set(sealed, IV_BYTES);
        return base64UrlEncode(bytes);
      },
      async open(sealed, additionalData) {
        const bytes = base64UrlDecode(sealed);
        if (!bytes || bytes.length < IV_BYTES + TAG_BYTES) throw new Error("malformed");
        const params = { name: "AES-GCM", iv: bytes.subarray(0, IV_BYTES), additionalData: utf8Encode(additionalData) };
        return utf8Decode(new Uint8Array(await crypto.subtle.decrypt(params, key, bytes.subarray(IV_BYTES))));
      },
    };
  },
};
