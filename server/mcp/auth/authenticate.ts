/**
 * A step of `POST /mcp`: who is calling? It sets `event.context.mcpAuth`, or answers 401.
 *
 * The principal is a stable string naming the caller. It is sealed into every `requestState`,
 * so a state issued to one caller is refused for another, and handlers see it as `mcp.principal`.
 * With `NITRO_MCP_AUTH_TOKENS` set (`alice:token1,bob:token2`), every request needs
 * `Authorization: Bearer <token>` and the principal is the name paired with the token;
 * without it, every caller is `anonymous`.
 */
import { send, setResponseHeaders, setResponseStatus, type H3Event } from "h3";
import { useMcpConfig } from "../config";
import { requestHeader } from "../http/request-headers";
import { createTokenTable, type TokenTable } from "./bearer-tokens";
import { UnauthorizedError } from "./unauthorized";

let tokens: TokenTable | undefined;

async function principalOf(event: H3Event): Promise<string> {
  const config = useMcpConfig();
  if (config.authTokens.length === 0) return "anonymous";
  tokens ??= createTokenTable(config.authTokens);
  const authorization = requestHeader(event, "authorization");
  const principal = await tokens.principalFor(authorization);
  if (!principal) throw new UnauthorizedError(authorization ? "invalid_token" : "missing_token");
  return principal;
}

/** Step: the caller's identity on `event.context.mcpAuth`, or a 401 with a Bearer challenge (RFC 6750). */
export async function authenticate(event: H3Event): Promise<void> {
  try {
    event.context.mcpAuth = { principal: await principalOf(event) };
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
    setResponseStatus(event, 401);
    setResponseHeaders(event, { "www-authenticate": error.challenge, "content-type": "application/json" });
    return send(event, JSON.stringify({ error: error.reason === "missing_token" ? "invalid_request" : "invalid_token", error_description: error.message }));
  }
}
