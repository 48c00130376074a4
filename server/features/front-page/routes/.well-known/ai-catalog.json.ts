/** GET /.well-known/ai-catalog.json — the AI Catalog, whose one entry points at this server's card (/mcp/server-card). */
import { answerPublicDocument } from "../../server-card";
import { guardHost } from "../../../../mcp/kit";

export default defineEventHandler({
  onRequest: [guardHost],
  handler: (event) => answerPublicDocument(event, "ai-catalog"),
});
