/**
 * Access-token validation, one code path on every platform (jose and fetch only):
 *
 * - a JWT (RFC 9068) is verified against the issuer's keys (cached; an unknown key id refetches them,
 *   at most once per cooldown): signature with an asymmetric algorithm only (never `none` or HMAC),
 *   `iss` equal to the issuer, `aud` containing this endpoint's URL (or NITRO_MCP_AUTH_AUDIENCE), `exp`/`nbf` with 5 s of leeway,
 *   and a `typ` of an access token (`at+jwt`) or a plain JWT;
 * - any other token is introspected (RFC 7662) when this server has client credentials, with the
 *   answer cached briefly under a hash of the token: active, same issuer, this audience, not expired;
 *   an address whose tokens it refuses too often is refused more for a while (refused-tokens.ts).
 *
 * A token longer than NITRO_MCP_AUTH_MAX_TOKEN_LENGTH is refused first: nothing is parsed or sent for it.
 * Every call to the issuer goes through issuer-fetch.ts: an issuer that cannot answer gives a 503
 * (fail closed, with Retry-After), never a verdict on the token; an introspection it refuses is judged
 * for that request alone (introspection-refusal.ts). The token itself goes nowhere else: handlers see
 * its claims, never the token.
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
import { base64UrlEncode, isPlainObject, utf8Encode, type AuthInfo } from "../../mcp/kit";
import { AuthError, IssuerUnavailableError, invalidToken } from "./auth-error";
import { authorizationServerMetadata } from "./authorization-server";
import { refusalVerdict } from "./introspection-refusal";
import { takeTokenCheck } from "./refused-tokens";
import { BACKOFF_SECONDS, fetchIssuerJson, IssuerRefusal } from "./issuer-fetch";
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

const unavailable = (reason: string) => new IssuerUnavailableError(reason, BACKOFF_SECONDS);

const scopesOf = (value: unknown): string[] => (typeof value === "string" ? value.split(" ").filter(Boolean) : []);

/**
 * Each kind of caller has principals of its own shape, so that none can pass for another: a subject
 * is `<issuer>#<sub>` (the issuer is an http(s) URL); a client acting for itself is
 * `client:<issuer>#<client_id>`, whether its token has no `sub` (as introspection answers for client
 * credentials) or `sub` equal to `client_id` (as RFC 9068 has a client-credentials JWT say), so that
 * a user whose subject is a client's id is not that client; a static token's name has no `:` at all,
 * and `anonymous` is no token.
 */
function principalOf(oauth: OAuthSettings, claims: Record<string, unknown>): string {
  const { sub, client_id: clientId } = claims;
  if (sub !== undefined && sub !== null && sub !== clientId) {
    if (typeof sub !== "string" || !sub) throw invalidToken("the token's sub is not a non-empty string");
    return `${oauth.issuer}#${sub}`;
  }
  if (typeof clientId !== "string" || !clientId)
    throw invalidToken("the token names no subject (sub) and no client (client_id)");
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
      throw invalidToken(`a JWT of type ${verified.protectedHeader.typ} is not an access token`);
    payload = verified.payload;
  } catch (error) {
    if (error instanceof AuthError) throw error;
    // jose's own errors judge the token; anything else (a key the issuer published that cannot be imported) is the issuer's fault.
    if (!(error instanceof errors.JOSEError)) throw unavailable(`the issuer's keys: ${(error as Error).message}`);
    throw invalidToken(`${error.code}: ${error.message}`);
  }
  return authInfoOf(oauth, payload as Record<string, unknown>);
}

const introspected = new Map<string, { until: number; info: AuthInfo | AuthError }>();

/** Tokens being judged now, by key: requests that carry the same token at once share one introspection. */
const judging = new Map<string, Promise<AuthInfo | AuthError>>();

async function introspect(oauth: OAuthSettings, token: string, address: string): Promise<AuthInfo> {
  const client = oauth.introspection;
  if (!client) throw invalidToken("an opaque token, and no introspection is configured (NITRO_MCP_AUTH_CLIENT_ID)");
  const key = base64UrlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Encode(token))));
  const hit = introspected.get(key);
  if (hit && hit.until > Date.now()) {
    if (hit.info instanceof AuthError) throw hit.info;
    return hit.info;
  }
  let verdict = judging.get(key);
  if (!verdict) {
    const settle = takeTokenCheck(address);
    verdict = judge(oauth, client, token)
      .then(
        (info) => {
          settle(info instanceof AuthError);
          // A refusal is kept its while, whatever the token's `exp`: a client retrying an expired token asks nothing more.
          const exp = info instanceof AuthError ? undefined : info.claims?.exp;
          remember(key, info, typeof exp === "number" ? exp * 1000 : Number.POSITIVE_INFINITY);
          return info;
        },
        (error: unknown) => {
          settle(false);
          throw error;
        },
      )
      .finally(() => judging.delete(key));
    judging.set(key, verdict);
  }
  const info = await verdict;
  if (info instanceof AuthError) throw info;
  return info;
}

/** The authorization server's verdict on `token`; throws when it cannot give one (IssuerUnavailableError). */
async function judge(
  oauth: OAuthSettings,
  client: NonNullable<OAuthSettings["introspection"]>,
  token: string,
): Promise<AuthInfo | AuthError> {
  const url = client.url ?? (await authorizationServerMetadata(oauth.issuer)).introspection_endpoint;
  if (!url)
    throw unavailable(
      "the authorization server's metadata has no introspection_endpoint: set NITRO_MCP_AUTH_INTROSPECTION_URL",
    );
  try {
    const answer = await fetchIssuerJson(url, (json) => json, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
        authorization: `Basic ${btoa(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`)}`,
      },
      body: new URLSearchParams({ token, token_type_hint: "access_token" }),
    });
    return verdictOf(oauth, answer);
  } catch (error) {
    if (!(error instanceof IssuerRefusal)) throw error;
    const verdict = refusalVerdict(error);
    if (verdict instanceof IssuerUnavailableError) throw verdict;
    return verdict;
  }
}

/** What an introspection answer says of its token. */
function verdictOf(oauth: OAuthSettings, answer: Record<string, unknown>): AuthInfo | AuthError {
  const audiences = ([] as unknown[]).concat(answer.aud ?? []);
  if (answer.active !== true) return invalidToken("introspection: the token is not active");
  if (answer.iss !== undefined && answer.iss !== oauth.issuer) return invalidToken("introspection: another issuer");
  if (!audiences.includes(oauth.audience)) return invalidToken("introspection: the token is not for this server (aud)");
  if (typeof answer.exp === "number" && answer.exp * 1000 < Date.now() - CLOCK_TOLERANCE_SECONDS * 1000)
    return invalidToken("introspection: expired");
  try {
    return authInfoOf(oauth, answer);
  } catch (error) {
    return error as AuthError;
  }
}

/** Keeps a verdict for INTROSPECTION_CACHE_MS, or until the token expires if sooner. */
function remember(key: string, info: AuthInfo | AuthError, expiresAt: number): void {
  if (introspected.size >= INTROSPECTION_CACHE_SIZE) introspected.delete(introspected.keys().next().value!);
  introspected.set(key, { until: Math.min(Date.now() + INTROSPECTION_CACHE_MS, expiresAt), info });
}

/**
 * Who the access token sent from `address` says is calling; throws an AuthError (401, or 503 when nothing can be checked),
 * or a 429 when the authorization server has refused too many of that address's tokens (refused-tokens.ts).
 */
export function verifyAccessToken(oauth: OAuthSettings, token: string, address: string): Promise<AuthInfo> {
  // Real tokens are far shorter (opaque ones tens to hundreds of characters, signed JWTs one to a few KB), and an Authorization
  // header past the default bound does not get through a default nginx (8 KiB a header line): a longer one is refused before it
  // is parsed or sent to the authorization server, whose own body limit (or worse, its failure) it could otherwise meet.
  if (token.length > oauth.maxTokenLength)
    return Promise.reject(invalidToken(`the token is longer than ${oauth.maxTokenLength} characters`));
  return isJwt(token) ? verifyJwt(oauth, token) : introspect(oauth, token, address);
}
