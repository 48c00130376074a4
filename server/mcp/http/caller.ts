/**
 * Who a request comes from, for what callers share: the address the platform (or a trusted proxy) gives, and the caller key
 * every fair share and rate limit counts against.
 *
 * Forwarded headers (`X-Forwarded-For`, `X-Forwarded-Proto`) are read only with NITRO_MCP_TRUST_PROXY=N, N
 * the number of proxies in front that append to them: each appends the address it was reached from, so with N trusted proxies
 * the client is the Nth entry from the right, and everything left of it is whatever the client wrote. Without it a client
 * could pick its own address, or the scheme a shared cache keeps for every other reader.
 */
import { peerAddress, peerScheme } from "#mcp-platform";
import type { H3Event } from "h3";
import { useMcpConfig } from "../config";
import type { AuthInfo } from "../context";
import { requestHeader } from "../protocol";
import { parseList } from "../settings";

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipv4Bytes(text: string): number[] | undefined {
  const match = IPV4.exec(text);
  const bytes = match?.slice(1).map(Number);
  return bytes?.every((byte) => byte <= 255) ? bytes : undefined;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail read), or undefined. */
function ipv6Groups(text: string): number[] | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const parse = (part: string): number[] | undefined => {
    if (part === "") return [];
    const groups: number[] = [];
    const pieces = part.split(":");
    for (const [index, piece] of pieces.entries()) {
      const tail = index === pieces.length - 1 ? ipv4Bytes(piece) : undefined;
      if (tail) groups.push((tail[0]! << 8) | tail[1]!, (tail[2]! << 8) | tail[3]!);
      else if (/^[0-9a-f]{1,4}$/i.test(piece)) groups.push(Number.parseInt(piece, 16));
      else return undefined;
    }
    return groups;
  };
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/**
 * One caller's address as a key: an IPv4 address as it is (an IPv4-mapped IPv6 address included, so a dual-stack socket and
 * an IPv4 one key a client alike), an IPv6 address as its network of `ipv6Prefix` bits (a host usually holds a whole /64, so
 * keying each address would hand it 2^64 budgets). Brackets, a port and a zone are dropped; anything else is kept as text.
 * @example
 * callerAddress("::ffff:192.0.2.7", 64); // "192.0.2.7"
 * callerAddress("2001:db8:a:b:1:2:3:4", 64); // "2001:db8:a:b::/64"
 */
export function callerAddress(raw: string, ipv6Prefix: number): string {
  let text = raw.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  text = text.replace(/%.*$/, "");
  if (ipv4Bytes(text)) return text;
  const groups = ipv6Groups(text);
  if (!groups) return text.slice(0, 100) || "unknown";
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  const masked = groups.map((group, index) => {
    const bits = Math.min(16, Math.max(0, ipv6Prefix - index * 16));
    return bits === 16 ? group : group & ~(0xffff >> bits) & 0xffff;
  });
  const kept = masked.slice(0, Math.ceil(ipv6Prefix / 16)).map((group) => group.toString(16));
  return ipv6Prefix === 128 ? kept.join(":") : `${kept.join(":")}::/${ipv6Prefix}`;
}

/** The forwarded header's entry that the trusted proxies vouch for, or undefined without them (or with fewer entries than proxies). */
function forwarded(event: H3Event, name: string): string | undefined {
  const trusted = useMcpConfig().trustProxy;
  if (trusted === 0) return undefined;
  const hops = parseList(requestHeader(event, name));
  // Fewer entries than trusted proxies: the request did not come through them all, so the header proves nothing.
  return hops.length >= trusted ? hops[hops.length - trusted] : undefined;
}

/**
 * The client's address, normalized ("unknown" when neither the platform nor a trusted proxy gives one: such callers
 * share one key).
 * @example
 * addRequestCheck((event) => (blocked.has(clientAddress(event)) ? invalidRequest("Blocked", 403) : undefined));
 */
export function clientAddress(event: H3Event): string {
  const raw = forwarded(event, "x-forwarded-for") ?? peerAddress(event);
  return raw ? callerAddress(raw, useMcpConfig().ipv6Prefix) : "unknown";
}

/**
 * The key one caller's fair shares and limits count against: a signed-in caller (or a static token) by its principal, an
 * anonymous one by its address. The kinds are prefixed, so no principal can pass for an address.
 * @example
 * const release = takeShare("streams", callerKey(event, event.context.mcpAuth)); // "principal:…" or "address:…"
 */
export function callerKey(event: H3Event, auth: AuthInfo | undefined): string {
  return auth && auth.via !== "anonymous" ? `principal:${auth.principal}` : `address:${clientAddress(event)}`;
}

/**
 * `http` or `https` and the `Host` the client reached (checked by the Host guard, which must run first): the scheme a trusted
 * proxy forwards (one that passes on what the client wrote could say anything: only the two count), else the connection's, as
 * the platform reports it (`#mcp-platform`).
 * @example const endpoint = useMcpConfig().resourceUrl ?? `${requestOrigin(event)}/mcp`;
 */
export function requestOrigin(event: H3Event): string {
  const scheme = forwarded(event, "x-forwarded-proto")?.toLowerCase();
  return `${scheme === "http" || scheme === "https" ? scheme : peerScheme(event)}://${requestHeader(event, "host")}`;
}
