/** The official 2026-07-28 client (`@modelcontextprotocol/client` 2.x), pinned to this revision. */
import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from "@modelcontextprotocol/client";

export async function connectModernClient(
  url: string,
  options: { capabilities?: ClientCapabilities; autoFulfill?: boolean; headers?: Record<string, string> } = {},
): Promise<Client> {
  const client = new Client(
    { name: "template-tests", version: "1.0.0" },
    {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      capabilities: options.capabilities ?? {},
      inputRequired: { autoFulfill: options.autoFulfill ?? true },
    },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: options.headers ?? {} } }),
  );
  return client;
}
