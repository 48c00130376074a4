#!/usr/bin/env node
/**
 * Contender (b): the official SDK's stateless server (`@modelcontextprotocol/server` 2.x,
 * `createMcpHandler`) on node:http, with the template's example tools and the SDK's own
 * requestState codec (HMAC-SHA256) turned on. Used by the benchmark only.
 */
import { createServer } from "node:http";
import {
  McpServer,
  createMcpHandler,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
} from "@modelcontextprotocol/server";
import * as z from "zod/v4";

const codec = createRequestStateCodec({ key: process.env.NITRO_MCP_STATE_SECRET, ttlSeconds: 600 });
const confirm = z.object({ confirm: z.boolean().describe("Yes, go ahead") });
const text = (value) => ({ content: [{ type: "text", text: value }] });
const GREETINGS = { en: "Hello", fr: "Bonjour", de: "Hallo", es: "Hola" };

const handler = createMcpHandler(
  () => {
    const server = new McpServer(
      { name: "sdk-bench", version: "1.0.0" },
      { capabilities: { tools: {} }, requestState: { verify: codec.verify } },
    );
    server.registerTool(
      "bench_greet",
      {
        description: "Greets a person by name in English, French, German or Spanish.",
        inputSchema: z.object({ name: z.string().min(1), locale: z.enum(["en", "fr", "de", "es"]).default("en").meta({ "x-mcp-header": "Locale" }) }),
      },
      async ({ name, locale }) => text(`${GREETINGS[locale]}, ${name}!`),
    );
    server.registerTool(
      "bench_confirm",
      { description: "Asks for confirmation, then acts on the item.", inputSchema: z.object({ item: z.string() }) },
      async ({ item }, ctx) => {
        const answer = inputResponse(ctx.mcpReq.inputResponses, "confirm");
        const state = ctx.mcpReq.requestState();
        if (answer.kind === "elicit" && state?.item === item) {
          return text(answer.action === "accept" && answer.content?.confirm === true ? `Done with item ${item}.` : `Kept item ${item}.`);
        }
        return inputRequired({
          inputRequests: { confirm: inputRequired.elicit({ message: `Act on item ${item}?`, requestedSchema: confirm }) },
          requestState: await codec.mint({ item }),
        });
      },
    );
    return server;
  },
  { legacy: "reject" },
);

const server = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(key, value);
  const response = await handler.fetch(
    new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: req.method === "POST" ? Buffer.concat(chunks) : undefined }),
  );
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
}).listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`Listening on http://127.0.0.1:${server.address().port}`);
});
