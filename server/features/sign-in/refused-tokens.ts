/**
 * A bound on what one address can have the authorization server judge. Every opaque token this server has not seen costs
 * the authorization server an introspection, and anyone can make tokens up: unbounded, one caller could spend the
 * authorization server's own rate limit, whose 429 holds every caller back (issuer-fetch.ts). So once the authorization
 * server has refused REFUSED_PER_WINDOW of an address's tokens within a minute, that address's unseen tokens are refused
 * (429, with Retry-After) without being sent, until its minute is over. Verdicts already cached still answer, and other
 * addresses are untouched. Counted per instance, as the verdicts are cached.
 */
import { limitExceeded } from "../../mcp/kit";

const REFUSED_PER_WINDOW = 20;
const WINDOW_MS = 60_000;
/** Addresses tracked at once; past it, the one tracked longest is forgotten. */
const MAX_ADDRESSES = 10_000;

const refused = new Map<string, { since: number; count: number }>();

/**
 * Throws the 429 when the authorization server has refused REFUSED_PER_WINDOW of `address`'s tokens this minute.
 * @example checkRefusedTokens(clientAddress(event)); // then introspect
 */
export function checkRefusedTokens(address: string): void {
  const record = refused.get(address);
  if (!record || record.count < REFUSED_PER_WINDOW) return;
  const retryAfterMs = record.since + WINDOW_MS - Date.now();
  if (retryAfterMs <= 0) return;
  const seconds = Math.ceil(retryAfterMs / 1000);
  throw limitExceeded(
    `Too many tokens from this address were refused: at most ${REFUSED_PER_WINDOW} a minute are checked; retry after ${seconds} s`,
    { limit: REFUSED_PER_WINDOW, windowMs: WINDOW_MS, retryAfterMs },
    { "retry-after": String(seconds) },
  );
}

/**
 * Counts one of `address`'s tokens that the authorization server refused.
 * @example if (verdict instanceof AuthError) noteRefusedToken(address);
 */
export function noteRefusedToken(address: string): void {
  const now = Date.now();
  const record = refused.get(address);
  if (record && now - record.since < WINDOW_MS) {
    record.count++;
    return;
  }
  refused.delete(address);
  if (refused.size >= MAX_ADDRESSES) refused.delete(refused.keys().next().value!);
  refused.set(address, { since: now, count: 1 });
}
