/**
 * Each caller's share of what every caller of an instance shares: open streams, message-bus subscriptions and the memory of
 * request bodies still arriving (one trickled in, or stalled until its deadline, holds what came so far). A caller (a
 * principal, or an anonymous address: `http/caller.ts`) holding its whole share is refused more (429 in JSON-RPC and HTTP,
 * naming the limit) while every other caller is served as before: no single caller can use up a bound that others need. The shares are
 * counted per instance, in memory, as the streams and subscriptions they bound are. Every stream also ends by one deadline.
 */
import { useMcpConfig } from "./config";
import { limitExceeded } from "./errors";
import { SETTINGS } from "./settings";

/** Each kind of share: the setting of each caller's share, and what the refusal calls it. */
const SHARES = {
  streams: { setting: "callerStreams", what: "open streams" },
  subscriptions: { setting: "callerSubscriptions", what: "resource or answer subscriptions" },
  bodies: { setting: "callerBodies", what: "request bodies being sent" },
} as const;

export type ShareKind = keyof typeof SHARES;

/**
 * When a stream opened now must end (`NITRO_MCP_STREAM_SECONDS`, under every platform's limit on a response): every stream
 * the server holds open waiting (a listen, an adapter's stream or question) ends by then; the client opens another.
 * @example const deadline = streamDeadline(); while (Date.now() < deadline && !mcp.signal.aborted) await waitForNext();
 */
export const streamDeadline = (): number => Date.now() + useMcpConfig().streamSeconds * 1000;

/** The units each caller holds, by kind and caller (`streams address:192.0.2.7`). */
const held = new Map<string, number>();

/**
 * Takes one unit of `caller`'s share of `kind`, and returns what gives it back (idempotent). Throws 429 (HTTP 429) when the
 * caller already holds its whole share.
 * @example
 * const release = takeShare("streams", mcp.caller);
 * try { await stream(); } finally { release(); }
 */
export function takeShare(kind: ShareKind, caller: string): () => void {
  const { setting, what } = SHARES[kind];
  const limit = useMcpConfig()[setting];
  const key = `${kind} ${caller}`;
  const count = held.get(key) ?? 0;
  if (count >= limit) {
    const message = `Too many ${what}: at most ${limit} per caller at once (${SETTINGS[setting].env}); retry once one has ended`;
    throw limitExceeded(message, { limit, share: kind });
  }
  held.set(key, count + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (held.get(key) ?? 1) - 1;
    if (left > 0) held.set(key, left);
    else held.delete(key);
  };
}
