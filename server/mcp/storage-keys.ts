/**
 * Storage keys made from what clients send. unstorage reads `:` and `/` as separators, drops
 * what follows `?` or `#`, and folds `..`, so a raw identifier could alias another record or
 * reach outside its prefix. Identifiers either match the allow-list, or go in as a digest.
 */
import { base64UrlEncode, utf8Encode } from "./internal/basics";

export const KEY_SEGMENT = /^[A-Za-z0-9_-]{1,128}$/;

/** A key segment for any text (a principal, a URI): its SHA-256, base64url. Distinct texts never share one. */
export async function digestKeySegment(text: string): Promise<string> {
  return base64UrlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Encode(text))));
}
