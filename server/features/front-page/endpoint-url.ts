/** The URL people should give their MCP client, as the front page shows it. */
import { getRequestProtocol, type H3Event } from "h3";
import type { McpConfig } from "../../mcp/config";
import { requestHeader } from "../../mcp/request-meta";

/**
 * `http` or `https`, as the client reached us. Nitro's Worker entry tells its request mock the
 * protocol as `"https:"` where the mock looks for `"https"`, so on Workers h3 would always answer
 * `http`: the platform's own request URL says it instead. Elsewhere h3 knows (the socket, or
 * `X-Forwarded-Proto` from Vercel and other proxies).
 */
function requestScheme(event: H3Event): string {
  const workerUrl = (event.context as { cloudflare?: { url?: URL } }).cloudflare?.url;
  return workerUrl ? workerUrl.protocol.slice(0, -1) : getRequestProtocol(event);
}

/**
 * The endpoint's URL: NITRO_MCP_RESOURCE_URL when set (the canonical URL, behind a proxy or on a
 * custom domain), else this request's scheme and Host with `/mcp`. Call it after
 * `guardOriginAndHost`, which has checked that Host is a valid host[:port] this server answers to.
 */
export function endpointUrl(event: H3Event, config: McpConfig): string {
  return config.resourceUrl ?? `${requestScheme(event)}://${requestHeader(event, "host")}/mcp`;
}
