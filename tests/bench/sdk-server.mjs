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

const notes = new Map([
  ["7", "Groceries"],
  ["12", "Conference talk"],
  ["15", "Plant care"],
]);
const codec = createRequestStateCodec({ key: process.env.NITRO_MCP_STATE_SECRET, ttlSeconds: 600 });
const confirm = z.object({ confirm: z.boolean().describe("Yes, delete this note for good") });
const text = (value) => ({ content: [{ type: "text", text: value }] });
const GREETINGS = { en: "Hello", fr: "Bonjour", de: "Hallo", es: "Hola" };

const handler = createMcpHandler(
  () => {
    const server = new McpServer(
      { name: "sdk-bench", version: "1.0.0" },
      { capabilities: { tools: {} }, requestState: { verify: codec.verify } },
    );
    server.registerTool(
      "add",
      { title: "Add two numbers", description: "Adds two numbers and returns their sum.", inputSchema: z.object({ a: z.number(), b: z.number() }), outputSchema: z.object({ sum: z.number() }) },
      async ({ a, b }) => ({ ...text(JSON.stringify({ sum: a + b })), structuredContent: { sum: a + b } }),
    );
    server.registerTool(
      "greet",
      {
        title: "Greet someone",
        description: "Greets a person by name in English, French, German or Spanish.",
        inputSchema: z.object({ name: z.string().min(1), locale: z.enum(["en", "fr", "de", "es"]).default("en").meta({ "x-mcp-header": "Locale" }) }),
      },
      async ({ name, locale }) => text(`${GREETINGS[locale]}, ${name}!`),
    );
    server.registerTool("list_notes", { title: "List notes", description: "Lists every note with its id and title." }, async () =>
      text([...notes].map(([id, title]) => `#${id} ${title}`).join("\n")),
    );
    server.registerTool(
      "countdown",
      { title: "Count down", description: "Counts down from `from` to zero.", inputSchema: z.object({ from: z.int().min(1).max(100).default(3), delay_ms: z.int().min(0).default(200) }) },
      async () => text("Lift-off!"),
    );
    server.registerTool("wizard", { title: "Profile wizard", description: "Asks three questions, one at a time." }, async () => text("(not used by the benchmark)"));
    server.registerTool("connect_account", { title: "Connect your demo account", description: "Links a pretend account." }, async () => text("(not used by the benchmark)"));
    server.registerTool(
      "delete_note",
      { title: "Delete a note", description: "Deletes one note by id. The person is asked to confirm first.", inputSchema: z.object({ note_id: z.string() }), annotations: { destructiveHint: true } },
      async ({ note_id }, ctx) => {
        const title = notes.get(note_id);
        if (!title) return { ...text(`There is no note with id ${note_id}.`), isError: true };
        const answer = inputResponse(ctx.mcpReq.inputResponses, "confirm");
        const state = ctx.mcpReq.requestState();
        if (answer.kind === "elicit" && state?.noteId === note_id) {
          if (answer.action === "accept" && answer.content?.confirm === true) {
            notes.delete(note_id);
            return text(`Deleted note ${note_id} ("${title}").`);
          }
          return text(`Kept note ${note_id} ("${title}").`);
        }
        return inputRequired({
          inputRequests: { confirm: inputRequired.elicit({ message: `Delete note ${note_id} ("${title}")? This cannot be undone.`, requestedSchema: confirm }) },
          requestState: await codec.mint({ noteId: note_id }),
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
