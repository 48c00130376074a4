/**
 * The authorization server's metadata: RFC 8414 first, then OpenID Connect discovery, with the
 * `issuer` it states checked against the configured one. Cached for an hour; a failure is
 * remembered for a few seconds, so an unreachable server is not asked again on every request.
 */
import { AuthError } from "./auth-error";

export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
}

const FETCH_TIMEOUT_MS = 5000;
const CACHE_MS = 60 * 60 * 1000;
const FAILURE_CACHE_MS = 5000;

/** The well-known URLs to try, in the order RFC 8414 §3.1 and OpenID Connect Discovery give for this issuer. */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${url.origin}${path}/.well-known/openid-configuration`];
}

async function discover(issuer: string): Promise<AuthorizationServerMetadata> {
  const failures: string[] = [];
  for (const url of metadataUrls(issuer)) {
    try {
      const response = await fetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!response.ok) {
        failures.push(`${url}: HTTP ${response.status}`);
        continue;
      }
      const metadata = (await response.json()) as AuthorizationServerMetadata;
      if (metadata.issuer !== issuer) throw new Error(`${url} states issuer "${metadata.issuer}", not "${issuer}"`);
      return metadata;
    } catch (error) {
      failures.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`no metadata for the issuer (${failures.join("; ")})`);
}

let cached: { issuer: string; until: number; metadata: Promise<AuthorizationServerMetadata> } | undefined;

/** The metadata of `issuer`; throws a 503 AuthError (fail closed) while it cannot be had. */
export async function authorizationServerMetadata(issuer: string): Promise<AuthorizationServerMetadata> {
  if (!cached || cached.issuer !== issuer || cached.until < Date.now()) {
    const entry = { issuer, until: Date.now() + CACHE_MS, metadata: discover(issuer) };
    entry.metadata.catch(() => (entry.until = Date.now() + FAILURE_CACHE_MS));
    cached = entry;
  }
  try {
    return await cached.metadata;
  } catch (error) {
    throw new AuthError(503, undefined, "The authorization server cannot be reached; try again shortly", undefined, (error as Error).message);
  }
}
