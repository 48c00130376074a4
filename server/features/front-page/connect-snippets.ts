/**
 * The copy-paste snippets of the front page: one per way to connect, each with the endpoint's URL
 * already in it. The URL and the server's name are quoted for the language each snippet is in
 * (shell, JavaScript, JSON); escaping for HTML happens later, when the page renders them.
 */
import { META, MODERN_PROTOCOL_VERSION } from "../../mcp/kit";
import { html, type SafeHtml } from "./html";

export interface ConnectSnippet {
  /** The section's anchor. */
  readonly id: string;
  readonly title: string;
  /** Where the snippet goes, or what to do with it. */
  readonly lead: SafeHtml;
  /** The text to copy, verbatim. */
  readonly code: string;
}

/** One shell word, whatever `text` holds. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A server/discover request as the README's "Try it" sends it: the mirrored headers and the 2026-07-28 `_meta`. */
function curlDiscover(endpoint: string): string {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "server/discover",
    params: {
      _meta: { [META.protocolVersion]: MODERN_PROTOCOL_VERSION, [META.clientCapabilities]: { elicitation: {} } },
    },
  });
  return [
    `curl -s ${shellQuote(endpoint)}`,
    `  -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream'`,
    `  -H 'MCP-Protocol-Version: ${MODERN_PROTOCOL_VERSION}' -H 'Mcp-Method: server/discover'`,
    `  -d ${shellQuote(body)}`,
  ].join(" \\\n");
}

/** The official TypeScript client, pinned to this server's revision as the tests pin it (tests/helpers/clients.ts). */
function typescriptClient(endpoint: string): string {
  return `// npm install @modelcontextprotocol/client
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const client = new Client(
  { name: "my-client", version: "1.0.0" },
  { versionNegotiation: { mode: { pin: "${MODERN_PROTOCOL_VERSION}" } } },
);
await client.connect(new StreamableHTTPClientTransport(new URL(${JSON.stringify(endpoint)})));
console.log(await client.listTools());
await client.close();`;
}

/** The snippets for an endpoint, in the order the page shows them. */
export function connectSnippets(serverName: string, endpoint: string): ConnectSnippet[] {
  const https = endpoint.startsWith("https://");
  return [
    {
      id: "inspector",
      title: "MCP Inspector",
      lead: html`Its web UI (Inspector 2, Node 22.19 or later) opens with this server listed: switch it on, then open <strong>Tools</strong>. <code>--protocol-era modern</code> speaks ${MODERN_PROTOCOL_VERSION}; <code>legacy</code>, its default, the 2025 revision most hosts still speak.`,
      code: `npx @modelcontextprotocol/inspector@2 --transport http --server-url ${shellQuote(endpoint)} --protocol-era modern`,
    },
    {
      id: "typescript",
      title: "TypeScript client",
      lead: html`The official client, <code>@modelcontextprotocol/client</code>, speaking protocol ${MODERN_PROTOCOL_VERSION}.`,
      code: typescriptClient(endpoint),
    },
    {
      id: "vscode",
      title: "VS Code",
      lead: html`In <code>.vscode/mcp.json</code> (or your user configuration: <em>MCP: Open User Configuration</em>).`,
      code: JSON.stringify({ servers: { [serverName]: { type: "http", url: endpoint } } }, null, 2),
    },
    {
      id: "claude",
      title: "Claude",
      lead: https
        ? html`<strong>Settings → Connectors → Add custom connector</strong>, with this URL: Claude connects from the internet.`
        : html`<strong>Settings → Connectors → Add custom connector</strong>. Claude connects from the internet, and this URL is
            not https: give it the public https URL of a deployment instead.`,
      code: endpoint,
    },
    {
      id: "curl",
      title: "curl",
      lead: html`What does this server offer? A <code>server/discover</code> request, with the headers and <code>_meta</code> every
        ${MODERN_PROTOCOL_VERSION} request carries (with sign-in or tokens on, add <code>-H 'Authorization: Bearer …'</code>).`,
      code: curlDiscover(endpoint),
    },
    {
      id: "terminal",
      title: "Terminal client",
      lead: html`From a clone of this template's repository.`,
      code: `npm run client -- --url ${shellQuote(endpoint)}`,
    },
  ];
}
