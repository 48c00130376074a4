/**
 * Who is calling? — the one place to plug in authentication.
 *
 * The principal is a stable string naming the caller. It is sealed into every
 * `requestState`, so a state issued to one caller is refused for another, and it is
 * available to handlers as `mcp.principal`.
 *
 * Default: with `NITRO_MCP_AUTH_TOKENS` set (`alice:token1,bob:token2`), every request
 * needs `Authorization: Bearer <token>` and the principal is the name paired with the
 * token; without it, every caller is `anonymous`. Replace the body with your own
 * check (an OAuth access token's `sub`, a session…) and throw `unauthorized()` to answer 401.
 */
import type { H3Event } from "h3";
import { createTokenTable, type TokenTable } from "./mcp/auth/bearer-tokens";
import { unauthorized } from "./mcp/auth/unauthorized";
import { useMcpConfig } from "./mcp/config";
import { requestHeader } from "./mcp/http/request-headers";

let tokens: TokenTable | undefined;

export async function resolvePrincipal(event: H3Event): Promise<string> {
  const config = useMcpConfig();
  if (config.authTokens.length === 0) return "anonymous";
  tokens ??= createTokenTable(config.authTokens);
  const authorization = requestHeader(event, "authorization");
  const principal = await tokens.principalFor(authorization);
  if (!principal) throw unauthorized(authorization ? "invalid_token" : "missing_token");
  return principal;
}
