/** The URL people should give their MCP client, as the front page and the server card show it. */
import type { H3Event } from "h3";
import { requestOrigin, type McpConfig } from "../../mcp/kit";

/**
 * The endpoint's URL: NITRO_MCP_RESOURCE_URL when set (the canonical URL, behind a proxy or on a custom domain), else this
 * request's origin with `/mcp` (a forwarded scheme only through NITRO_MCP_TRUST_PROXY's proxies: these pages are cached, and
 * a client's own `X-Forwarded-Proto` must not become what the cache serves everyone). Call it after the Host guard.
 */
export function endpointUrl(event: H3Event, config: McpConfig): string {
  return config.resourceUrl ?? `${requestOrigin(event)}/mcp`;
}
