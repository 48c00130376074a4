/**
 * DNS-rebinding protection and CORS. A rebinding page sends its own name in `Host` and `Origin` alike, so `Host` comes
 * first: on a loopback or private address it must be a loopback name, an IP literal or in NITRO_MCP_ALLOWED_HOSTS (once
 * set, on every connection; serverless platforms have no socket address); then `Origin` must be that host or listed.
 */
import { sendNoContent, setResponseHeaders, type H3Event } from "h3";
import { useMcpConfig, type McpConfig } from "../config";
import { invalidRequest } from "../errors";
import { clip } from "../internal/text";
import { logWarning } from "../log";
import { requestHeader } from "../protocol";
import { sendError } from "./error-reply";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
/**
 * host[:port] (captured: the hostname and the port): a name (dot-separated labels of URI-unreserved characters: docker's
 * `my_service` too), an IPv4 address, or an IPv6 literal.
 */
const VALID_HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9_~-]+(?:\.[a-z0-9_~-]+)*\.?)(?::(\d{1,5}))?$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const PRIVATE_ADDRESS =
  /^(?:::ffff:)?(?:127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|169\.254\.)|^(?:::1$|f[cd][0-9a-f]{2}:|fe80:)/i;
const ALLOWED_REQUEST_HEADERS =
  /^(content-type|accept|authorization|mcp-protocol-version|mcp-session-id|mcp-method|mcp-name|mcp-param-[!#$%&'*+.^_`|~0-9a-z-]+|traceparent|tracestate|baggage)$/;

/** A name a rebinding attack cannot produce: loopback names and IP literals. */
const isRebindingSafe = (hostname: string) =>
  LOOPBACK_HOSTS.has(hostname) || IPV4.test(hostname) || hostname.startsWith("[");

/** Why the guard refuses a request: 400 for a malformed `Host`, 403 for a foreign one or a foreign `Origin`. */
type Refusal = { status: 400 | 403; reason: string };

/** Why `Host` is not a valid host[:port] (RFC 9110 §7.2, a port that exists) this server answers to, or undefined when it is. */
function hostRefusal(event: H3Event, config: McpConfig): Refusal | undefined {
  const host = (requestHeader(event, "host") ?? "").toLowerCase();
  const match = host.length <= 260 ? VALID_HOST.exec(host) : null;
  if (!match || Number(match[2] ?? 0) > 65535)
    return { status: 400, reason: "the Host header is missing or not a valid host[:port]" };
  const hostname = match[1]!;
  const listed = config.allowedHosts.includes(host) || config.allowedHosts.includes(hostname);
  // `nitropack dev` listens on 127.0.0.1 only but proxies to a worker, so trust the mode there.
  const localAddress = event.node?.req?.socket?.localAddress;
  const local = !!import.meta.dev || (!!localAddress && PRIVATE_ADDRESS.test(localAddress));
  if (!listed && ((local && !isRebindingSafe(hostname)) || config.allowedHosts.length > 0)) {
    return { status: 403, reason: `Host "${host}" is not allowed: list it in NITRO_MCP_ALLOWED_HOSTS` };
  }
}

function refuse(event: H3Event, { status, reason }: Refusal): Promise<void> {
  logWarning(`${status}: ${reason}`);
  const message = `${status === 403 ? "Forbidden" : "Bad request"}: ${reason}`;
  return sendError(event, undefined, invalidRequest(message, status));
}

/**
 * Step for public documents any origin may read (the server card): only `Host`, which their URLs are built from.
 * @example export default defineEventHandler({ onRequest: [guardHost], handler: (event) => serverCard(event) });
 */
export async function guardHost(event: H3Event): Promise<void> {
  const refusal = hostRefusal(event, useMcpConfig());
  if (refusal) return refuse(event, refusal);
}

/**
 * Step: 403 for a foreign Host or Origin; 204 for an allowed preflight; CORS headers for an allowed origin.
 * @example
 * export default defineEventHandler({ onRequest: [guardOriginAndHost], handler: (event) => frontPage(event) });
 */
export function guardOriginAndHost(event: H3Event): Promise<void> | void {
  const config = useMcpConfig();
  const refusal = hostRefusal(event, config);
  if (refusal) return refuse(event, refusal);
  const origin = requestHeader(event, "origin");
  if (origin === undefined) return;
  const normalized = origin.toLowerCase();
  if (!config.allowedOrigins.includes(normalized) && !config.allowedOrigins.includes("*")) {
    // "null" and other opaque origins are never same-origin; a same-origin request needs no CORS headers.
    if (URL.canParse(normalized) && new URL(normalized).host === requestHeader(event, "host")!.toLowerCase()) return;
    const reason = `Origin "${clip(origin)}" is not allowed: list it in NITRO_MCP_ALLOWED_ORIGINS`;
    return refuse(event, { status: 403, reason });
  }
  // An empty Origin that "*" lets through names no origin to allow: no CORS headers.
  if (!origin) return;
  const headers: Record<string, string> = {
    "access-control-allow-origin": origin,
    "access-control-expose-headers": "WWW-Authenticate, MCP-Protocol-Version, Mcp-Session-Id",
    vary: "Origin",
  };
  const preflight = event.method === "OPTIONS" && requestHeader(event, "access-control-request-method") !== undefined;
  if (preflight) {
    headers["access-control-allow-methods"] = "POST";
    headers["access-control-max-age"] = "600";
    const allowed = (requestHeader(event, "access-control-request-headers") ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => ALLOWED_REQUEST_HEADERS.test(name));
    if (allowed.length) headers["access-control-allow-headers"] = allowed.join(", ");
  }
  setResponseHeaders(event, headers);
  if (preflight) sendNoContent(event, 204);
}
