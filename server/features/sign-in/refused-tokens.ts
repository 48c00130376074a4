/**
 * A bound on what one address can have the authorization server judge. Every opaque token this server has not seen costs
 * the authorization server an introspection, and anyone can make tokens up: unbounded, one caller could spend the
 * authorization server's own rate limit, whose 429 holds every caller back (issuer-fetch.ts). So an address has at most
 * REFUSED_PER_WINDOW of its tokens refused by the authorization server within a minute, or being judged at once: past
 * that, its unseen tokens are refused (429, with Retry-After) without being sent, until its minute is over. Verdicts
 * already cached still answer, and other addresses are untouched. Counted per instance, as the verdicts are cached.
 */
import { limitExceeded } from "../../mcp/kit";

const REFUSED_PER_WINDOW = 20;
const WINDOW_MS = 60_000;
/** Addresses tracked at once; past it, the one tracked longest is forgotten. */
const MAX_ADDRESSES = 10_000;

interface AddressRecord {
  since: number;
  refused: number;
  /** Tokens of this address being judged now: each may be refused, so each holds a place. */
  judging: number;
}

const records = new Map<string, AddressRecord>();

/** The address's record, its count of refusals begun afresh when its minute is over. */
function recordOf(address: string, now: number): AddressRecord {
  let record = records.get(address);
  if (!record) {
    if (records.size >= MAX_ADDRESSES) records.delete(records.keys().next().value!);
    record = { since: now, refused: 0, judging: 0 };
    records.set(address, record);
  } else if (now - record.since >= WINDOW_MS) {
    record.since = now;
    record.refused = 0;
  }
  return record;
}

/**
 * Takes a place for judging one of `address`'s tokens, or throws the 429 when the address has none left this minute; the
 * returned function, called once, gives it back, saying whether the authorization server refused the token (which keeps
 * it taken).
 * @example const settle = takeTokenCheck(address); try { … settle(refused) } catch { settle(false) }
 */
export function takeTokenCheck(address: string): (refused: boolean) => void {
  const now = Date.now();
  const record = recordOf(address, now);
  if (record.refused + record.judging >= REFUSED_PER_WINDOW) {
    const retryAfterMs = Math.max(1, record.since + WINDOW_MS - now);
    const seconds = Math.ceil(retryAfterMs / 1000);
    throw limitExceeded(
      `Too many tokens from this address were refused: at most ${REFUSED_PER_WINDOW} a minute are checked; retry after ${seconds} s`,
      { limit: REFUSED_PER_WINDOW, windowMs: WINDOW_MS, retryAfterMs },
      { "retry-after": String(seconds) },
    );
  }
  record.judging++;
  return (refused) => {
    record.judging--;
    if (refused) recordOf(address, Date.now()).refused++;
  };
}
