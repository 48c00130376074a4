/**
 * Connects the official client (`@modelcontextprotocol/client`) pinned to protocol revision
 * 2026-07-28: no fallback to an older one, so what you try here is what a 2026 client sees.
 * Multi round-trip requests are fulfilled by the client itself (`inputRequired.autoFulfill`),
 * through the handlers of the given Answerer.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { printingFetch } from "./curl.mjs";
import { CLIENT_CAPABILITIES, registerInputHandlers } from "./input-handlers.mjs";
import { safeText } from "./safe-text.mjs";

export const PROTOCOL_VERSION = "2026-07-28";

/**
 * @typedef {object} ConnectOptions
 * @property {string} url the MCP endpoint
 * @property {string} [token] sent as `Authorization: Bearer <token>`
 * @property {boolean} [curl] print every HTTP request as a curl command
 * @property {import("./input-handlers.mjs").Answerer} answerer who answers the server's questions
 * @property {import("./output.mjs").Output} output
 */

/**
 * @param {ConnectOptions} options
 * @returns {Promise<Client>}
 */
export async function connect({ url, token, curl, answerer, output }) {
  const client = new Client(
    { name: "mcp-edge-template-terminal-client", version: "1.0.0" },
    {
      versionNegotiation: { mode: { pin: PROTOCOL_VERSION } },
      capabilities: CLIENT_CAPABILITIES,
      inputRequired: { autoFulfill: true },
    },
  );
  registerInputHandlers(client, answerer);
  client.setNotificationHandler("notifications/message", ({ params }) => {
    const data = typeof params.data === "string" ? params.data : JSON.stringify(params.data);
    output.note(safeText(`[${params.level}${params.logger ? ` ${params.logger}` : ""}] ${data}`));
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(token ? { authProvider: { token: async () => token } } : {}),
    ...(curl ? { fetch: printingFetch(output.curl) } : {}),
  });
  await client.connect(transport);
  return client;
}
