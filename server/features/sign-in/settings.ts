/** Sign-in's settings (read with `useSettings`; their table is in this folder's README). */
import { integer, optionalText, parseList, setting } from "../../mcp/settings";

function parseTokenPairs(raw: unknown): { principal: string; token: string }[] {
  return parseList(raw).map((pair) => {
    const separator = pair.indexOf(":");
    const principal = pair.slice(0, separator).trim();
    const token = pair.slice(separator + 1).trim();
    // Name the position, never the value: this message may reach a log.
    if (separator <= 0 || !token) throw new Error("NITRO_MCP_AUTH_TOKENS entries must look like principal:token");
    return { principal, token };
  });
}

export const SETTINGS = {
  /** Static bearer tokens as principal:token pairs; when set (or with sign-in), every request needs Authorization: Bearer <token> */
  authTokens: setting({ env: "NITRO_MCP_AUTH_TOKENS", default: "", text: true, parse: parseTokenPairs }),
  /** The OAuth authorization server's issuer URL; setting it turns sign-in on (its metadata is discovered: RFC 8414, then OpenID) */
  authIssuer: setting({ env: "NITRO_MCP_AUTH_ISSUER", default: "", text: true, parse: optionalText }),
  /** The audience tokens must carry, when the authorization server names this API by something other than its URL (an API identifier or audience tag) */
  authAudience: setting({
    env: "NITRO_MCP_AUTH_AUDIENCE",
    default: "",
    shownDefault: "NITRO_MCP_RESOURCE_URL",
    text: true,
    parse: optionalText,
  }),
  /** Where the issuer's signing keys are; default: jwks_uri from its metadata */
  authJwksUrl: setting({ env: "NITRO_MCP_AUTH_JWKS_URL", default: "", text: true, parse: optionalText }),
  /** After fetching the issuer's keys, how long a token with an unknown key id waits before they are fetched again (a rotation is picked up after it) */
  authJwksCooldownSeconds: setting({ env: "NITRO_MCP_AUTH_JWKS_COOLDOWN_SECONDS", default: 30, parse: integer(0) }),
  /** The longest access token checked: a longer one is refused (401) before it is parsed or sent anywhere. Raise it only for an authorization server that puts large claims (every role) into its tokens */
  authMaxTokenLength: setting({ env: "NITRO_MCP_AUTH_MAX_TOKEN_LENGTH", default: 8192, parse: integer(256) }),
  /** Scopes advertised in the protected-resource metadata and in 401 challenges (comma-separated): what basic use needs */
  authScopes: setting({ env: "NITRO_MCP_AUTH_SCOPES", default: "", text: true, parse: parseList }),
  /** RFC 7662 introspection endpoint for opaque tokens; default: introspection_endpoint from the metadata, used when a client id is set */
  authIntrospectionUrl: setting({
    env: "NITRO_MCP_AUTH_INTROSPECTION_URL",
    default: "",
    text: true,
    parse: optionalText,
  }),
  /** This server's client id at the authorization server, for introspection */
  authClientId: setting({ env: "NITRO_MCP_AUTH_CLIENT_ID", default: "", text: true, parse: optionalText }),
  /** This server's client secret at the authorization server, for introspection */
  authClientSecret: setting({ env: "NITRO_MCP_AUTH_CLIENT_SECRET", default: "", text: true, parse: optionalText }),
} as const;
