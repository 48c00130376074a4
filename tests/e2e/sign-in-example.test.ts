/**
 * The sign-in docs' flow (server/features/sign-in/README.md) with the examples: the development authorization server and the server
 * started with the variables the docs give, the official client signing in on its own, then
 * deleting a note (which needs notes:write: the client steps up) after confirming.
 */
import { spawn } from "node:child_process";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { expect, it } from "vitest";
import { docBlock } from "../helpers/docs";
import { DevLoginProvider } from "../helpers/oauth";
import { OUTPUT, freePort, startServer } from "../helpers/server.mjs";

/** `NAME=value` pairs of the docs' sign-in command line, with its ports (4000, 3000) moved to free ones. */
async function readmeSignInVariables(): Promise<Record<string, string>> {
  const block = docBlock("server/features/sign-in/README.md", "sign-in");
  const [authPort, mcpPort] = [await freePort(), await freePort()];
  const line = block
    .split("\n")
    .find((text) => text.includes("NITRO_MCP_AUTH_ISSUER="))!
    .replaceAll("127.0.0.1:4000", `127.0.0.1:${authPort}`)
    .replaceAll("127.0.0.1:3000", `127.0.0.1:${mcpPort}`);
  return Object.fromEntries([...line.matchAll(/(NITRO_MCP_[A-Z_]+)=(\S+)/g)].map((match) => [match[1]!, match[2]!]));
}

it("signs in as the docs show, and deletes a note after confirming", async () => {
  const variables = await readmeSignInVariables();
  const resource = new URL(variables.NITRO_MCP_RESOURCE_URL!);
  const issuer = new URL(variables.NITRO_MCP_AUTH_ISSUER!);
  // `npm run auth-server`, on the docs' port.
  const authServer = spawn(process.execPath, ["server/features/sign-in/dev/auth-server.mjs"], {
    env: { ...process.env, PORT: issuer.port, NITRO_MCP_RESOURCE_URL: resource.href },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) =>
    authServer.stdout.on("data", (chunk) => String(chunk).includes("Authorization server on") && resolve()),
  );
  const server = await startServer({ output: OUTPUT.product, env: { ...variables, PORT: resource.port } });
  try {
    const provider = new DevLoginProvider("dana");
    const connect = async () => {
      const transport = new StreamableHTTPClientTransport(resource, { authProvider: provider });
      const client = new Client(
        { name: "readme", version: "1.0.0" },
        { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { form: {} } } },
      );
      await client.connect(transport);
      return { client, transport };
    };
    const firstTry = await connect().catch((error) => error);
    expect(firstTry).toBeInstanceOf(UnauthorizedError);
    await new StreamableHTTPClientTransport(resource, { authProvider: provider }).finishAuth(
      provider.callback!.searchParams,
    );
    const { client, transport } = await connect();
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { confirm: true } }));
    const stepUp = await client.callTool({ name: "delete_note", arguments: { note_id: "7" } }).catch((error) => error);
    expect(stepUp).toBeInstanceOf(UnauthorizedError); // notes:read was granted; delete_note needs notes:write
    await transport.finishAuth(provider.callback!.searchParams);
    const deleted = await client.callTool({ name: "delete_note", arguments: { note_id: "7" } });
    expect((deleted.content as { text: string }[])[0]!.text).toBe('Deleted note 7 ("Groceries").');
    await client.close();
  } finally {
    await server.stop();
    authServer.kill();
  }
});
