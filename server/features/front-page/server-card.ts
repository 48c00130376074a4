/**
 * Discovery before connecting, as the MCP server-card draft describes it (SEP-2127,
 * modelcontextprotocol/experimental-ext-server-card, docs/discovery.md):
 * - the server card, `GET <endpoint>/server-card`: who this server is and how to reach it;
 * - an AI Catalog at `/.well-known/ai-catalog.json` whose one entry points at the card.
 * Both are public metadata: any origin may read them (CORS `*`), caches may keep them an hour, and
 * an `ETag` lets a client revalidate. Their URLs come from the same place as the front page's.
 */
import { setResponseHeaders, setResponseStatus, type H3Event } from "h3";
import { SETTINGS } from "./settings";
import { endpointUrl } from "./endpoint-url";
import { explicitQuality } from "./prefers-html";
import {
  base64UrlEncode,
  requestHeader,
  supportedProtocolVersions,
  useMcpConfig,
  useSettings,
  authenticationInfo,
  utf8Encode,
  type McpConfig,
} from "../../mcp/kit";

const SERVER_CARD_TYPE = "application/mcp-server-card+json";
const AI_CATALOG_TYPE = "application/ai-catalog+json";
const SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";

/**
 * On every answer: the CORS headers the draft asks of a server card host (and, where it is silent, of
 * the catalog too), plus nosniff and `Vary: Accept` (the media type is negotiated).
 */
const EVERY_ANSWER_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET",
  "access-control-allow-headers": "Content-Type, If-None-Match",
  "access-control-expose-headers": "ETag",
  "x-content-type-options": "nosniff",
  vary: "Accept",
};

/** The card's URL: the draft's reserved location, the endpoint's URL plus `/server-card`. */
const serverCardUrl = (endpoint: string): string => `${endpoint.replace(/\/$/, "")}/server-card`;

/**
 * NITRO_MCP_SERVER_CARD_NAME, else `<the endpoint's host, reversed>/<the server name>`:
 * `https://mcp.example.com/mcp` serving `weather` is `com.example.mcp/weather`. An address has no
 * reverse-DNS form (nor has a malformed NITRO_MCP_RESOURCE_URL): it is named `local`. Characters the
 * card's pattern refuses become `-`.
 */
function cardName(config: McpConfig, endpoint: string): string {
  const { serverCardName } = useSettings(SETTINGS);
  if (serverCardName) return serverCardName;
  const hostname = URL.canParse(endpoint) ? new URL(endpoint).hostname : "";
  const address = !hostname || hostname.startsWith("[") || /^[\d.]+$/.test(hostname);
  const namespace = address
    ? "local"
    : hostname
        .replace(/[^a-z0-9.-]/g, "-")
        .split(".")
        .reverse()
        .join(".");
  const name = config.serverInfo.name.replace(/[^a-zA-Z0-9._-]+/g, "-") || "server";
  return `${namespace.slice(0, 100)}/${name.slice(0, 99)}`;
}

/**
 * How to send a token when calling needs one. The card says only that a bearer token is required,
 * and where sign-in starts; it never holds a secret.
 */
function authorizationHeader(metadata: string | undefined): Record<string, unknown> {
  const header = { name: "Authorization", isRequired: true, isSecret: true };
  if (metadata) {
    return {
      ...header,
      description: `An OAuth access token: sign in with the authorization server named at ${metadata}`,
    };
  }
  return {
    ...header,
    description: "A bearer token issued by this server's operator",
    value: "Bearer {token}",
    variables: { token: { description: "Your token", isRequired: true, isSecret: true } },
  };
}

/** The server card: identity, and the one remote (streamable HTTP) with the versions server/discover lists. */
function serverCard(config: McpConfig, endpoint: string): Record<string, unknown> {
  const { name, version } = config.serverInfo;
  // What the authenticators say: when one needs a credential, every call needs one.
  const signIn = authenticationInfo().find((info) => info.required);
  return {
    $schema: SCHEMA_URL,
    name: cardName(config, endpoint),
    ...(name ? { title: name.slice(0, 100) } : {}),
    description: useSettings(SETTINGS).serverDescription || "A Model Context Protocol server",
    version,
    remotes: [
      {
        type: "streamable-http",
        url: endpoint,
        supportedProtocolVersions: supportedProtocolVersions(),
        ...(signIn ? { headers: [authorizationHeader(signIn.metadataUrl)] } : {}),
      },
    ],
  };
}

/** The AI Catalog: one entry, the card, named `urn:air:<publisher>:mcp:<name>` after the card's name. */
function aiCatalog(config: McpConfig, endpoint: string): Record<string, unknown> {
  const [namespace, name] = cardName(config, endpoint).split("/") as [string, string];
  const publisher = namespace.split(".").reverse().join(".");
  return {
    specVersion: "1.0",
    entries: [{ identifier: `urn:air:${publisher}:mcp:${name}`, type: SERVER_CARD_TYPE, url: serverCardUrl(endpoint) }],
  };
}

/** A strong validator of one representation: its media type and its bytes. */
async function entityTag(type: string, body: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Encode(`${type}\n${body}`)));
  return `"${base64UrlEncode(digest)}"`;
}

/** Whether `If-None-Match` names this tag (weak comparison, RFC 9110 §13.1.2) or is `*`. */
function matches(ifNoneMatch: string | undefined, tag: string): boolean {
  return (ifNoneMatch ?? "").split(",").some((candidate) => {
    const trimmed = candidate.trim();
    return trimmed === "*" || trimmed.replace(/^W\//, "") === tag;
  });
}

/**
 * Answers a request for one of the two documents (after the Host guard): the CORS preflight, HEAD,
 * GET with revalidation (304), 405 otherwise. Its own media type unless the client prefers plain
 * `application/json` (names it with a higher quality than the document's type).
 */
export async function answerPublicDocument(
  event: H3Event,
  document: "server-card" | "ai-catalog",
): Promise<string | null> {
  setResponseHeaders(event, EVERY_ANSWER_HEADERS);
  if (event.method === "OPTIONS") {
    setResponseHeaders(event, { "access-control-max-age": 86400 });
    setResponseStatus(event, 204);
    return null;
  }
  if (event.method !== "GET" && event.method !== "HEAD") {
    setResponseHeaders(event, { allow: "GET, HEAD, OPTIONS", "content-type": "application/json" });
    setResponseStatus(event, 405);
    return JSON.stringify({ error: "Method not allowed", allow: "GET, HEAD, OPTIONS" });
  }
  const config = useMcpConfig();
  const endpoint = endpointUrl(event, config);
  const [own, body] =
    document === "server-card"
      ? [SERVER_CARD_TYPE, JSON.stringify(serverCard(config, endpoint))]
      : [AI_CATALOG_TYPE, JSON.stringify(aiCatalog(config, endpoint))];
  const accept = requestHeader(event, "accept");
  const type = explicitQuality(accept, "application/json") > explicitQuality(accept, own) ? "application/json" : own;
  const tag = await entityTag(type, body);
  // The caching the draft asks for, on the document and its 304 only (never on a refusal).
  setResponseHeaders(event, { "content-type": type, etag: tag, "cache-control": "public, max-age=3600" });
  if (matches(requestHeader(event, "if-none-match"), tag)) {
    setResponseStatus(event, 304);
    return null;
  }
  return body;
}
