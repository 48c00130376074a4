/**
 * Sign-in settings: on when NITRO_MCP_AUTH_ISSUER is set. Checked at start-up, so a server that
 * cannot validate tokens never starts (and never runs with an open door).
 */
import type { McpConfig, ParsedSettings } from "../../mcp/kit";
import type { SETTINGS } from "./settings";

export interface OAuthSettings {
  /** The authorization server's issuer identifier, exactly as its metadata and tokens state it. */
  readonly issuer: string;
  /** This endpoint's canonical URL: the metadata's `resource`. */
  readonly resource: string;
  /** What every token's `aud` must contain: the resource URL, unless the authorization server names this API otherwise. */
  readonly audience: string;
  /** Advertised in the metadata and in 401 challenges. */
  readonly scopes: readonly string[];
  readonly jwksUrl?: string;
  readonly jwksCooldownSeconds: number;
  /** The longest access token checked (NITRO_MCP_AUTH_MAX_TOKEN_LENGTH). */
  readonly maxTokenLength: number;
  /** Introspection of opaque tokens (RFC 7662), when this server has client credentials. */
  readonly introspection?: { readonly url?: string; readonly clientId: string; readonly clientSecret: string };
  /** For the metadata's `resource_name`. */
  readonly resourceName: string;
}

function absoluteUrl(value: string, variable: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${variable} must be an absolute URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`${variable} must be an http(s) URL`);
  if (url.hash || url.search) throw new Error(`${variable} must have no query and no fragment`);
  return url;
}

/** The sign-in settings, or undefined when sign-in is off. Throws with a clear message on a misconfiguration. */
export function oauthSettingsOf(settings: ParsedSettings<typeof SETTINGS>, core: McpConfig): OAuthSettings | undefined {
  const config = { ...settings, resourceUrl: core.resourceUrl, serverInfo: core.serverInfo };
  if (!config.authIssuer) return undefined;
  absoluteUrl(config.authIssuer, "NITRO_MCP_AUTH_ISSUER");
  if (!config.resourceUrl) {
    throw new Error(
      "NITRO_MCP_AUTH_ISSUER is set but NITRO_MCP_RESOURCE_URL is not: set it to the URL clients use for this endpoint " +
        "(e.g. https://mcp.example.com/mcp); it is the audience every access token must carry.",
    );
  }
  absoluteUrl(config.resourceUrl, "NITRO_MCP_RESOURCE_URL");
  if (config.authJwksUrl) absoluteUrl(config.authJwksUrl, "NITRO_MCP_AUTH_JWKS_URL");
  if (config.authIntrospectionUrl) absoluteUrl(config.authIntrospectionUrl, "NITRO_MCP_AUTH_INTROSPECTION_URL");
  if (!!config.authClientId !== !!config.authClientSecret) {
    throw new Error(
      "NITRO_MCP_AUTH_CLIENT_ID and NITRO_MCP_AUTH_CLIENT_SECRET go together (introspection of opaque tokens)",
    );
  }
  return {
    issuer: config.authIssuer,
    resource: config.resourceUrl,
    audience: config.authAudience ?? config.resourceUrl,
    scopes: config.authScopes,
    jwksUrl: config.authJwksUrl,
    jwksCooldownSeconds: config.authJwksCooldownSeconds,
    maxTokenLength: config.authMaxTokenLength,
    introspection:
      config.authClientId && config.authClientSecret
        ? { url: config.authIntrospectionUrl, clientId: config.authClientId, clientSecret: config.authClientSecret }
        : undefined,
    resourceName: config.serverInfo.name,
  };
}
