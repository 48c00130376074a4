#!/usr/bin/env node
/**
 * Contender: tmcp 1.x with @tmcp/transport-http and @tmcp/adapter-zod, as shipped (it answers every
 * request as a one-message SSE stream), serving 2026-07-28 requests statelessly, with the
 * benchmark's tools. tmcp's default requestState codec is plain JSON (a client could forge it), so
 * it gets an AES-256-GCM one (aes-gcm-codec.mjs), like the template's.
 */
import { ZodJsonSchemaAdapter } from "@tmcp/adapter-zod";
import { HttpTransport } from "@tmcp/transport-http";
import { McpServer } from "tmcp";
import { tool } from "tmcp/utils";
import * as z from "zod/v4";
import { createAesGcmCodec } from "./aes-gcm-codec.mjs";
import { listen } from "./listen.mjs";

const GREETINGS = { en: "Hello", fr: "Bonjour", de: "Hallo", es: "Hola" };
const Confirm = z.object({ confirm: z.boolean().describe("Yes, go ahead") });

const server = new McpServer(
  { name: "tmcp-bench", version: "1.0.0" },
  {
    adapter: new ZodJsonSchemaAdapter(),
    capabilities: { tools: {} },
    requestStateCodec: createAesGcmCodec(process.env.NITRO_MCP_STATE_SECRET, 600),
  },
);

server.tool(
  {
    name: "bench_greet",
    description: "Greets a person by name in English, French, German or Spanish.",
    schema: z.object({
      name: z.string().min(1),
      locale: z.enum(["en", "fr", "de", "es"]).default("en").meta({ "x-mcp-header": "Locale" }),
    }),
  },
  async ({ name, locale }) => tool.text(`${GREETINGS[locale]}, ${name}!`),
);
server.tool(
  {
    name: "bench_confirm",
    description: "Asks for confirmation, then acts on the item.",
    schema: z.object({ item: z.string() }),
    // tmcp re-runs the handler from the top on the retry, and only lets replayable handlers ask.
    replayable: true,
  },
  async ({ item }) => {
    const saved = server.ctx.requestState;
    server.setRequestState({ item });
    // Round one: throws tmcp's signal, answered as input_required. Round two: the validated answer.
    const answer = await server.elicitation(`Act on item ${item}?`, Confirm, { key: "confirm" });
    // tmcp acts on inputResponses alone; bind the answer to round one's sealed state.
    if (saved?.item !== item) return tool.error(`The confirmation for item ${item} lacks its requestState.`);
    return tool.text(
      answer.action === "accept" && answer.content?.confirm === true ? `Done with item ${item}.` : `Kept item ${item}.`,
    );
  },
);

const transport = new HttpTransport(server, { path: "/mcp", disableSse: true });
listen(async (request) => (await transport.respond(request)) ?? new Response("Not found", { status: 404 }));
