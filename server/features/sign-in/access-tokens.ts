/**
 * Access-token validation, one code path on Node, workerd and Vercel (jose and fetch only):
 *
 * - a JWT (RFC 9068) is verified against the issuer's keys (cached; an unknown key id refetches them,
 *   at most once per cooldown): signature with an asymmetric algorithm only (never `none` or HMAC),
 *   `iss` equal to the issuer, `aud` containing this endpoint's URL (or NITRO_MCP_AUTH_AUDIENCE), `exp`/`nbf` with 5 s of leeway,
 *   and a `typ` of an access token (`at+jwt`) or a plain JWT;
 * - any other token is introspected (RFC 7662) when this server has client credentials, with the
 *   answer cached briefly under a hash of the token: active, same issuer, this audience, not expired.
 *
 * Every call to the issuer goes through issuer-fetch.ts: an issuer that cannot answer gives a 503
 * (fail closed, with Retry-After), never a verdict on the token. The token itself goes nowhere
 * else: handlers see its claims, never the token.
 */
import {
  createRemoteJWKSet,
  customFetch,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type FetchImplementation,
  type JWTPayload,
} from "jose";
import type { AuthInfo } from "../../mcp/context";
import { base64UrlEncode, isPlainObject, utf8Encode } from "../../mcp/internal/basics";
import { AuthError, IssuerUnavailableError } from "./auth-error";
import { authorizationServerMetadata } from "./authorization-server";
import { BACKOFF_SECONDS, fetchIssuerJson } from "./issuer-fetch";
import type { OAuthSettings } from "./oauth-settings";

const ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];
const ACCESS_TOKEN_TYPES = new Set([undefined, "at+jwt", "application/at+jwt", "JWT"]);
const CLOCK_TOLERANCE_SECONDS = 5;
const INTROSPECTION_CACHE_MS = 10_000;
const INTROSPECTION_CACHE_SIZE = 10_000;

const invalid = (reason: string) =>
  new AuthError(401, "invalid_token", "The access token is not valid for this server", undefined, reason);
const unavailable = (reason: string) => new IssuerUnavailableError(reason, BACKOFF_SECONDS);

const scopesOf = (value: unknown): string[] => (typeof value === "string" ? value.split(" ").filter(Boolean) : []);

/**
 * Each kind of caller has principals of its own shape, so that none can pass for another: a subject
 * is `<issuer>#<sub>` (the issuer is an http(s) URL); a client acting for itself (a token without
 * `sub`, as introspection answers for client credentials) is `client:<issuer>#<client_id>`; a static
 * token's name has no `:` at all, and `anonymous` is no token.
 */
function principalOf(oauth: OAuthSettings, claims: Record<string, unknown>): string {
  const { sub, client_id: clientId } = claims;
  if (sub !== undefined && sub !== null) {
    if (typeof sub !== "string" || !sub) throw invalid("the token's sub is not a non-empty string");
    return `${oauth.issuer}#${sub}`;
  }
  if (typeof clientId !== "string" || !clientId)
    throw invalid("the token names no subject (sub) and no client (client_id)");
  return `client:${oauth.issuer}#${clientId}`;
}

function authInfoOf(oauth: OAuthSettings, claims: Record<string, unknown>): AuthInfo {
  return {
    principal: principalOf(oauth, claims),
    via: "oauth",
    scopes: scopesOf(claims.scope),
    clientId: typeof claims.client_id === "string" ? claims.client_id : undefined,
    claims,
  };
}

/** A token that parses as a JWS is a JWT; anything else is opaque. */
function isJwt(token: string): boolean {
  if (token.split(".").length !== 3) return false;
  try {
    decodeProtectedHeader(token);
    return true;
  } catch {
    return false;
  }
}

const keySetOf = (json: Record<string, unknown>) => {
  if (!Array.isArray(json.keys) || !json.keys.every(isPlainObject)) throw new Error("the key set has no list of keys");
  return json;
};

/** jose asks for the keys through this, so its fetches get the issuer's back-off and checks. */
const fetchKeys: FetchImplementation = async (url) => {
  const keySet = await fetchIssuerJson(url, keySetOf, {
    headers: { accept: "application/jwk-set+json, application/json" },
    redirect: "manual",
  });
  return Response.json(keySet);
};

let keys: { url: string; set: ReturnType<typeof createRemoteJWKSet> } | undefined;

async function keySet(oauth: OAuthSettings) {
  const url = oauth.jwksUrl ?? (await authorizationServerMetadata(oauth.issuer)).jwks_uri;
  if (!url) throw unavailable("the authorization server's metadata has no jwks_uri: set NITRO_MCP_AUTH_JWKS_URL");
  if (keys?.url !== url) {
    keys = {
      url,
      set: createRemoteJWKSet(new URL(url), {
        cooldownDuration: oauth.jwksCooldownSeconds * 1000,
        [customFetch]: fetchKeys,
      }),
    };
  }
  return keys.set;
}

async function verifyJwt(oauth: OAuthSettings, token: string): Promise<AuthInfo> {
  const set = await keySet(oauth);
  let payload: JWTPayload;
  try {
    const verified = await jwtVerify(token, set, {
      issuer: oauth.issuer,
      audience: oauth.audience,
      algorithms: ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ["exp"],
    });
    if (!ACCESS_TOKEN_TYPES.has(verified.protectedHeader.typ))
      throw invalid(`a JWT of type ${verified.protectedHeader.typ} is not an access token`);
    payload = verified.payload;
  } catch (error) {
    if (error instanceof AuthError) throw error;
    // jose's own errors judge the token; anything else (a key the issuer published that cannot be imported) is the issuer's fault.
    if (!(error instanceof errors.JOSEError)) throw unavailable(`the issuer's keys: ${(error as Error).message}`);
    throw invalid(`${error.code}: ${error.message}`);
  }
  return authInfoOf(oauth, payload as Record<string, unknown>);
}

const introspected = new Map<string, { until: number; info: AuthInfo | AuthError }>();

async function introspect(oauth: OAuthSettings, token: string): Promise<AuthInfo> {
  const client = oauth.introspection;
  if (!client) throw invalid("an opaque token, and no introspection is configured (NITRO_MCP_AUTH_CLIENT_ID)");
  const key = base64UrlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Encode(token))));
  const hit = introspected.get(key);
  if (hit && hit.until > Date.now()) {
    if (hit.info instanceof AuthError) throw hit.info;
    return hit.info;
  }
  const url = client.url ?? (await authorizationServerMetadata(oauth.issuer)).introspection_endpoint;
  if (!url)
    throw unavailable(
      "the authorization server's metadata has no introspection_endpoint: set NITRO_MCP_AUTH_INTROSPECTION_URL",
    );
  const answer = await fetchIssuerJson(url, (json) => json, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
      authorization: `Basic ${btoa(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`)}`,
    },
    body: new URLSearchParams({ token, token_type_hint: "access_token" }),
  });
  const audiences = ([] as unknown[]).concat(answer.aud ?? []);
  let info: AuthInfo | AuthError;
  if (answer.active !== true) info = invalid("introspection: the token is not active");
  else if (answer.iss !== undefined && answer.iss !== oauth.issuer) info = invalid("introspection: another issuer");
  else if (!audiences.includes(oauth.audience)) info = invalid("introspection: the token is not for this server (aud)");
  else if (typeof answer.exp === "number" && answer.exp * 1000 < Date.now() - CLOCK_TOLERANCE_SECONDS * 1000)
    info = invalid("introspection: expired");
  else {
    try {
      info = authInfoOf(oauth, answer);
    } catch (error) {
      info = error as AuthError;
    }
  }
  if (introspected.size >= INTROSPECTION_CACHE_SIZE) introspected.delete(introspected.keys().next().value!);
  const expiresAt = typeof answer.exp === "number" ? answer.exp * 1000 : Number.POSITIVE_INFINITY;
  introspected.set(key, { until: Math.min(Date.now() + INTROSPECTION_CACHE_MS, expiresAt), info });
  if (info instanceof AuthError) throw info;
  return info;
}

/** Who the access token says is calling; throws an AuthError (401, or 503 when nothing can be checked). */
export function verifyAccessToken(oauth: OAuthSettings, token: string): Promise<AuthInfo> {
  return isJwt(token) ? verifyJwt(oauth, token) : introspect(oauth, token);
}
