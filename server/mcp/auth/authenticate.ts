/**
 * A step of `POST /mcp`: who is calling? It sets `event.context.mcpAuth`, or answers the refusal
 * (400, 401 with a challenge, 503 when the authorization server cannot be reached).
 *
 * - Sign-in (NITRO_MCP_AUTH_ISSUER): an OAuth access token for this endpoint, verified in
 *   `access-tokens.ts`; the principal is `<issuer>#<subject>` (`client:<issuer>#<client_id>` for a
 *   token without a subject), with its scopes and claims.
 * - Static tokens (NITRO_MCP_AUTH_TOKENS): a configured token; the principal is its name.
 * - Both: a static token is accepted as itself (an operator's key, not limited by scopes), any other
 *   token is verified as an access token. Neither: every caller is `anonymous`.
 *
 * One credential per request (RFC 6750 §3.1): a second Authorization header is 400 `invalid_request`,
 * never silently dropped. Node keeps only the first in `headers`, so they are counted; a Fetch runtime
 * (Workers) joins them with a comma, which no token holds (RFC 6750's b64token; static tokens are a comma-separated list).
 */
import type { H3Event } from "h3";
import { useMcpConfig } from "../config";
import type { AuthInfo } from "../context";
import { requestHeader, requestHeaderCount } from "../http/request-headers";
import { verifyAccessToken } from "./access-tokens";
import { AuthError, sendAuthError } from "./auth-error";
import { oauthSettingsOf, type OAuthSettings } from "./oauth-settings";
import { createTokenTable, type TokenTable } from "./static-tokens";

const ANONYMOUS: AuthInfo = { principal: "anonymous", via: "anonymous", scopes: [] };
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

let setup: { oauth?: OAuthSettings; tokens?: TokenTable } | undefined;

/** The sign-in settings (undefined when sign-in is off); parsed once, checked at start-up. */
export function useOAuthSettings(): OAuthSettings | undefined {
  return useAuthSetup().oauth;
}

function useAuthSetup() {
  if (!setup) {
    const config = useMcpConfig();
    setup = { oauth: oauthSettingsOf(config), tokens: config.authTokens.length ? createTokenTable(config.authTokens) : undefined };
  }
  return setup;
}

async function authInfoOf(event: H3Event): Promise<AuthInfo> {
  const { oauth, tokens } = useAuthSetup();
  if (!oauth && !tokens) return ANONYMOUS;
  const authorization = requestHeader(event, "authorization");
  if (authorization === undefined) throw new AuthError(401, undefined, "Authentication required: send Authorization: Bearer <token>");
  if (authorization.includes(",") || requestHeaderCount(event, "authorization") > 1) {
    throw new AuthError(400, "invalid_request", "Send one Authorization header, with one token: Bearer <token>");
  }
  const token = BEARER.exec(authorization)?.[1];
  if (!token) throw new AuthError(400, "invalid_request", "The Authorization header must be: Bearer <token>");
  const principal = tokens && (await tokens.principalFor(token));
  if (principal) return { principal, via: "static", scopes: [] };
  if (!oauth) throw new AuthError(401, "invalid_token", "The bearer token is not valid");
  return verifyAccessToken(oauth, token);
}

/** Step: the caller's identity on `event.context.mcpAuth`, or the refusal. */
export async function authenticate(event: H3Event): Promise<void> {
  try {
    event.context.mcpAuth = await authInfoOf(event);
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    return sendAuthError(event, error, useOAuthSettings());
  }
}
