/**
 * Whom a request is counted against: the signed-in principal (issuer and subject), the static
 * token's principal, or, for an anonymous caller, its address. The address is the platform's own
 * (the socket on Node; `CF-Connecting-IP`, set by Cloudflare's edge, on Workers only: elsewhere a
 * client could send it), and `X-Forwarded-For` only when NITRO_MCP_TRUST_PROXY says how many
 * proxies append to it: each appends the address it was reached from, so with N trusted proxies the
 * client is the Nth entry from the right, and everything left of it is whatever the client wrote.
 */
import type { H3Event } from "h3";
import { requestHeader } from "../../mcp/http/mcp-headers";

/** workerd says so in `navigator.userAgent`; Node says "Node.js/…" (or has no navigator). */
const ON_WORKERS = globalThis.navigator?.userAgent === "Cloudflare-Workers";

/** The client's address as the platform or the trusted proxies give it ("unknown" when none does: all such callers share one budget). */
export function clientAddress(event: H3Event, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const hops = (requestHeader(event, "x-forwarded-for") ?? "").split(",").map((hop) => hop.trim()).filter(Boolean);
    // Fewer entries than trusted proxies: the request did not come through them all, so the header proves nothing.
    if (hops.length >= trustedProxies) return hops[hops.length - trustedProxies]!;
  }
  if (ON_WORKERS) return requestHeader(event, "cf-connecting-ip") ?? "unknown";
  return event.node.req.socket?.remoteAddress ?? "unknown";
}

/** The caller as text: kinds are prefixed, so no principal can pass for an address. */
export function callerOf(event: H3Event, trustedProxies: number): string {
  const auth = event.context.mcpAuth;
  return auth && auth.via !== "anonymous" ? `principal:${auth.principal}` : `address:${clientAddress(event, trustedProxies)}`;
}
