/**
 * Each caller's share of what every caller of an instance shares: open streams and message-bus subscriptions. A caller (a
 * principal, or an anonymous address: `http/caller.ts`) holding its whole share is refused more (429 in JSON-RPC and HTTP, naming the
 * limit) while every other caller is served as before: no single caller can use up a bound that others need. The shares are
 * counted per instance, in memory, as the streams and subscriptions they bound are. Every stream also ends by one deadline.
 */
import { useMcpConfig } from "./config";
import { limitExceeded } from "./errors";
import { SETTINGS } from "./settings";

/** Each kind of share: the setting of each caller's share, and what the refusal calls it. */
const SHARES = {
  streams: { setting: "callerStreams", what: "open streams" },
  subscriptions: { setting: "callerSubscriptions", what: "resource or answer subscriptions" },
} as const;

export type ShareKind = keyof typeof SHARES;

/**
 * When a stream opened now must end (`NITRO_MCP_STREAM_SECONDS`, under every platform's limit on a response): every stream
 * the server holds open waiting (a listen, an adapter's stream or question) ends by then; the client opens another.
 * @example const deadline = streamDeadline(); while (Date.now() < deadline && !mcp.signal.aborted) await waitForNext();
 */
export const streamDeadline = (): number => Date.now() + useMcpConfig().streamSeconds * 1000;

const held: Record<ShareKind, Map<string, number>> = { streams: new Map(), subscriptions: new Map() };

/**
 * Takes one unit of `caller`'s share of `kind`, and returns what gives it back (idempotent). Throws 429 (HTTP 429) when the
 * caller already holds its whole share.
 * @example
 * const release = takeShare("streams", mcp.caller);
 * try { await stream(); } finally { release(); }
 */
export function takeShare(kind: ShareKind, caller: string): () => void {
  const { setting, what } = SHARES[kind];
  const { env } = SETTINGS[setting];
  const limit = useMcpConfig()[setting];
  const counts = held[kind];
  const count = counts.get(caller) ?? 0;
  if (count >= limit) {
    throw limitExceeded(`Too many ${what}: at most ${limit} per caller at once (${env}); close one first`, {
      limit,
      share: kind,
    });
  }
  counts.set(caller, count + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (counts.get(caller) ?? 1) - 1;
    if (left > 0) counts.set(caller, left);
    else counts.delete(caller);
  };
}
