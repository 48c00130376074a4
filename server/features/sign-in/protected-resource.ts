/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728): where clients learn which authorization server
 * issues tokens for this endpoint. Served at the path-suffixed URL RFC 9728 defines for a resource
 * with a path (`/.well-known/oauth-protected-resource/mcp`) and at the root, which clients try next.
 */
import { setResponseHeaders, setResponseStatus, type H3Event } from "h3";
import type { OAuthSettings } from "./oauth-settings";

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

/** `https://host/.well-known/oauth-protected-resource/mcp` for `https://host/mcp`. */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}${WELL_KNOWN}${url.pathname === "/" ? "" : url.pathname}`;
}

/** The paths this server answers the metadata on: the path-suffixed one, and the root one. */
export function protectedResourceMetadataPaths(resource: string): string[] {
  const path = new URL(protectedResourceMetadataUrl(resource)).pathname;
  return path === WELL_KNOWN ? [WELL_KNOWN] : [path, WELL_KNOWN];
}

export function protectedResourceMetadata(oauth: OAuthSettings): Record<string, unknown> {
  return {
    resource: oauth.resource,
    authorization_servers: [oauth.issuer],
    ...(oauth.scopes.length ? { scopes_supported: oauth.scopes } : {}),
    bearer_methods_supported: ["header"],
    resource_name: oauth.resourceName,
  };
}

/** Answers a request for the metadata: any origin may read it (browser-based clients), and caches may keep it an hour. */
export function answerProtectedResourceMetadata(event: H3Event, oauth: OAuthSettings | undefined): string | null {
  const cors = { "access-control-allow-origin": "*", vary: "Origin" };
  if (!oauth || !protectedResourceMetadataPaths(oauth.resource).includes(event.path.split("?")[0]!)) {
    setResponseStatus(event, 404);
    setResponseHeaders(event, { "content-type": "application/json", ...cors });
    return JSON.stringify({
      error: "not_found",
      error_description: oauth ? "No metadata here" : "Sign-in is not configured on this server",
    });
  }
  if (event.method === "OPTIONS") {
    setResponseHeaders(event, {
      ...cors,
      "access-control-allow-methods": "GET",
      "access-control-allow-headers": "*",
      "access-control-max-age": 86400,
    });
    setResponseStatus(event, 204);
    return null;
  }
  if (event.method !== "GET" && event.method !== "HEAD") {
    setResponseStatus(event, 405);
    setResponseHeaders(event, { allow: "GET", ...cors });
    return null;
  }
  setResponseHeaders(event, { "content-type": "application/json", "cache-control": "public, max-age=3600", ...cors });
  return JSON.stringify(protectedResourceMetadata(oauth));
}
