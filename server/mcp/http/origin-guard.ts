/**
 * DNS-rebinding protection and CORS for the MCP endpoint.
 *
 * - Host: when the connection arrived on a loopback address, the `Host` header must name
 *   loopback too (`localhost`, `127.0.0.1`, `[::1]`) or be listed in NITRO_MCP_ALLOWED_HOSTS.
 *   A rebinding page reaches 127.0.0.1 under its own host name and is refused with 403.
 *   When NITRO_MCP_ALLOWED_HOSTS is set, it applies to every connection.
 * - Origin: a request carrying `Origin` must come from the same origin as the endpoint or
 *   from one listed in NITRO_MCP_ALLOWED_ORIGINS; anything else is 403.
 * - CORS: allowed cross-origin browsers get their preflight answered, may send the MCP
 *   headers, and may read `WWW-Authenticate` and `MCP-Protocol-Version`.
 */
import type { H3Event } from "h3";
import type { McpConfig } from "../config";
import { requestHeader } from "./request-headers";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const ALLOWED_REQUEST_HEADERS = /^(content-type|accept|authorization|mcp-protocol-version|mcp-method|mcp-name|mcp-param-[!#$%&'*+.^_`|~0-9a-z-]+|traceparent|tracestate|baggage)$/;

function hostnameOf(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith("[")) return lower.slice(0, lower.indexOf("]") + 1);
  const colon = lower.lastIndexOf(":");
  return colon === -1 ? lower : lower.slice(0, colon);
}

function isLoopbackAddress(address: string | undefined): boolean {
  return !!address && (address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127."));
}

export type GuardVerdict = { ok: true; corsOrigin?: string } | { ok: false; reason: string };

export function checkOriginAndHost(event: H3Event, config: McpConfig): GuardVerdict {
  const host = requestHeader(event, "host") ?? "";
  const hostname = hostnameOf(host);
  // `nitropack dev` listens on 127.0.0.1 only but proxies to a worker, so trust the mode there.
  const onLoopback = !!import.meta.dev || isLoopbackAddress(event.node?.req?.socket?.localAddress);
  const hostListed = config.allowedHosts.includes(host.toLowerCase()) || config.allowedHosts.includes(hostname);
  if (onLoopback && !LOOPBACK_HOSTS.has(hostname) && !hostListed) {
    return { ok: false, reason: `Host "${host}" is not allowed for a server bound to a loopback address` };
  }
  if (config.allowedHosts.length > 0 && !hostListed && !(onLoopback && LOOPBACK_HOSTS.has(hostname))) {
    return { ok: false, reason: `Host "${host}" is not in NITRO_MCP_ALLOWED_HOSTS` };
  }

  const origin = requestHeader(event, "origin");
  if (origin === undefined) return { ok: true };
  const normalized = origin.toLowerCase();
  if (config.allowedOrigins.includes(normalized) || config.allowedOrigins.includes("*")) {
    return { ok: true, corsOrigin: origin };
  }
  let sameOrigin = false;
  try {
    sameOrigin = new URL(normalized).host === host.toLowerCase();
  } catch {
    // "null" and other opaque origins are never same-origin
  }
  return sameOrigin ? { ok: true } : { ok: false, reason: `Origin "${origin}" is not allowed` };
}

/** CORS headers for an allowed cross-origin request (and its preflight). */
export function corsHeaders(origin: string, requestedHeaders?: string | null): Record<string, string> {
  const headers: Record<string, string> = {
    "access-control-allow-origin": origin,
    "access-control-expose-headers": "WWW-Authenticate, MCP-Protocol-Version",
    vary: "Origin",
  };
  if (requestedHeaders !== undefined) {
    headers["access-control-allow-methods"] = "POST";
    headers["access-control-max-age"] = "600";
    const allowed = (requestedHeaders ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => ALLOWED_REQUEST_HEADERS.test(name));
    if (allowed.length) headers["access-control-allow-headers"] = allowed.join(", ");
  }
  return headers;
}
