/**
 * The benchmark's two tools for the servers built on the official SDK (the SDK's own handler and
 * mcp-handler): the same names, schemas and texts as tests/fixtures-bench/tools, and the SDK's
 * requestState codec (HMAC-SHA256, signed: the client can read it; the template's is encrypted).
 */
import { createRequestStateCodec, inputRequired, inputResponse } from "@modelcontextprotocol/server";
import * as z from "zod/v4";

const GREETINGS = { en: "Hello", fr: "Bonjour", de: "Hallo", es: "Hola" };
const text = (value) => ({ content: [{ type: "text", text: value }] });
const Confirm = z.object({ confirm: z.boolean().describe("Yes, go ahead") });

export const stateCodec = createRequestStateCodec({ key: process.env.NITRO_MCP_STATE_SECRET, ttlSeconds: 600 });

/** Registers bench_greet and bench_confirm on an SDK `McpServer`. */
export function registerBenchTools(server) {
  server.registerTool(
    "bench_greet",
    {
      description: "Greets a person by name in English, French, German or Spanish.",
      inputSchema: z.object({
        name: z.string().min(1),
        locale: z.enum(["en", "fr", "de", "es"]).default("en").meta({ "x-mcp-header": "Locale" }),
      }),
    },
    async ({ name, locale }) => text(`${GREETINGS[locale]}, ${name}!`),
  );
  server.registerTool(
    "bench_confirm",
    { description: "Asks for confirmation, then acts on the item.", inputSchema: z.object({ item: z.string() }) },
    async ({ item }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "confirm");
      // Verified by the codec before the handler runs; binds the answer to round one's item.
      const state = ctx.mcpReq.requestState();
      if (answer.kind === "elicit" && state?.item === item) {
        return text(
          answer.action === "accept" && answer.content?.confirm === true
            ? `Done with item ${item}.`
            : `Kept item ${item}.`,
        );
      }
      return inputRequired({
        inputRequests: { confirm: inputRequired.elicit({ message: `Act on item ${item}?`, requestedSchema: Confirm }) },
        requestState: await stateCodec.mint({ item }),
      });
    },
  );
  return server;
}
