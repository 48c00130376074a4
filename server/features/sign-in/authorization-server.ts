/**
 * The authorization server's metadata: RFC 8414 first, then OpenID Connect discovery, with the
 * `issuer` it states checked against the configured one. Cached for an hour once found; while it
 * cannot be had, issuer-fetch.ts's back-off keeps an unreachable server from being asked on every request.
 */
import { IssuerUnavailableError } from "./auth-error";
import { fetchIssuerJson } from "./issuer-fetch";

export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
}

const CACHE_MS = 60 * 60 * 1000;
const URL_FIELDS = ["jwks_uri", "introspection_endpoint"] as const;

/** The well-known URLs to try, in the order RFC 8414 §3.1 and OpenID Connect Discovery give for this issuer. */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/** The metadata, once it states this issuer and its endpoints are URLs (an issuer's answer is checked like any other input). */
function metadataOf(issuer: string) {
  return (json: Record<string, unknown>): AuthorizationServerMetadata => {
    if (json.issuer !== issuer)
      throw new Error(`the metadata states issuer "${String(json.issuer).slice(0, 200)}", not "${issuer}"`);
    for (const field of URL_FIELDS) {
      const value = json[field];
      if (value !== undefined && (typeof value !== "string" || !URL.canParse(value)))
        throw new Error(`the metadata's ${field} is not a URL`);
    }
    return json as unknown as AuthorizationServerMetadata;
  };
}

async function discover(issuer: string): Promise<AuthorizationServerMetadata> {
  const failures: IssuerUnavailableError[] = [];
  for (const url of metadataUrls(issuer)) {
    try {
      return await fetchIssuerJson(url, metadataOf(issuer), { headers: { accept: "application/json" } });
    } catch (error) {
      if (!(error instanceof IssuerUnavailableError)) throw error;
      failures.push(error);
    }
  }
  const reasons = failures.map((failure) => failure.reason).join("; ");
  throw new IssuerUnavailableError(
    `no metadata for the issuer (${reasons})`,
    Math.min(...failures.map((failure) => failure.retryAfterSeconds)),
  );
}

let cached: { issuer: string; until: number; metadata: AuthorizationServerMetadata } | undefined;

/** The metadata of `issuer`; throws IssuerUnavailableError (a 503: fail closed) while it cannot be had. */
export async function authorizationServerMetadata(issuer: string): Promise<AuthorizationServerMetadata> {
  if (cached?.issuer === issuer && cached.until > Date.now()) return cached.metadata;
  const metadata = await discover(issuer);
  cached = { issuer, until: Date.now() + CACHE_MS, metadata };
  return metadata;
}
