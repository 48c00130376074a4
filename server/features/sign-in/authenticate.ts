/**
 * Who is calling, for the core's authenticate step (registered by `plugins/sign-in.ts`): the caller, or the refusal
 * (400, 401 with a challenge, 503 when the authorization server cannot be reached).
 *
 * - Sign-in (NITRO_MCP_AUTH_ISSUER): an OAuth access token for this endpoint, verified in
 *   `access-tokens.ts`; the principal is `<issuer>#<subject>` (`client:<issuer>#<client_id>` for a
 *   client acting for itself: no subject, or its own id as the subject), with its scopes and claims.
 * - Static tokens (NITRO_MCP_AUTH_TOKENS): a configured token; the principal is its name.
 * - Both: a static token is accepted as itself (an operator's key, not limited by scopes), any other
 *   token is verified as an access token. Neither: every caller is `anonymous`.
 *
 * One credential per request (RFC 6750 §3.1): a second Authorization header is 400 `invalid_request`,
 * never silently dropped. Node keeps only the first in `headers`, so they are counted; a Fetch runtime
 * joins them with a comma, which no token holds (RFC 6750's b64token; static tokens are a comma-separated list).
 */
import type { H3Event } from "h3";
import { clientAddress, requestHeader, useMcpConfig, useSettings, type AuthInfo } from "../../mcp/kit";
import { verifyAccessToken } from "./access-tokens";
import { AuthError, refusalOf } from "./auth-error";
import { oauthSettingsOf, type OAuthSettings } from "./oauth-settings";
import { SETTINGS } from "./settings";
import { createTokenTable, type TokenTable } from "./static-tokens";

/** How many times the request carries a header: Node's `headers` keeps only the first of some (`authorization`), `rawHeaders` has them all. */
function requestHeaderCount(event: H3Event, lowerCaseName: string): number {
  const raw = event.node.req.rawHeaders;
  let count = 0;
  for (let index = 0; index < raw.length; index += 2) if (raw[index]!.toLowerCase() === lowerCaseName) count++;
  return count;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

let setup: { oauth?: OAuthSettings; tokens?: TokenTable } | undefined;

/** The sign-in settings (undefined when sign-in is off); parsed once, checked at start-up. */
export function useOAuthSettings(): OAuthSettings | undefined {
  return useAuthSetup().oauth;
}

function useAuthSetup() {
  if (!setup) {
    const settings = useSettings(SETTINGS);
    setup = {
      oauth: oauthSettingsOf(settings, useMcpConfig()),
      tokens: settings.authTokens.length ? createTokenTable(settings.authTokens) : undefined,
    };
  }
  return setup;
}

async function authInfoOf(event: H3Event): Promise<AuthInfo | undefined> {
  const { oauth, tokens } = useAuthSetup();
  const authorization = requestHeader(event, "authorization");
  if (authorization === undefined) return undefined;
  if (authorization.includes(",") || requestHeaderCount(event, "authorization") > 1) {
    throw new AuthError(400, "invalid_request", "Send one Authorization header, with one token: Bearer <token>");
  }
  const token = BEARER.exec(authorization)?.[1];
  if (!token) throw new AuthError(400, "invalid_request", "The Authorization header must be: Bearer <token>");
  const principal = tokens && (await tokens.principalFor(token));
  if (principal) return { principal, via: "static", scopes: [] };
  if (!oauth) throw new AuthError(401, "invalid_token", "The bearer token is not valid");
  return verifyAccessToken(oauth, token, clientAddress(event));
}

/** Whether callers need a credential: sign-in, static tokens, or both are configured (checked at start-up, so it throws there). */
export function credentialRequired(): boolean {
  const { oauth, tokens } = useAuthSetup();
  return !!(oauth || tokens);
}

/**
 * The caller's identity from its bearer token (none: undefined, for the next authenticator); throws the refusal (a
 * challenge, or 503 when the authorization server cannot be asked).
 */
export async function authenticate(event: H3Event): Promise<AuthInfo | undefined> {
  try {
    return await authInfoOf(event);
  } catch (error) {
    throw refusalOf(error, useOAuthSettings());
  }
}

/** The refusal of a caller nobody identified: 401 with the challenge that says where to sign in. */
export const anonymousRefusal = (): Error =>
  refusalOf(
    new AuthError(401, undefined, "Authentication required: send Authorization: Bearer <token>"),
    useOAuthSettings(),
  ) as Error;
