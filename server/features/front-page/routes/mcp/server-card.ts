/** GET /mcp/server-card — the server card (MCP discovery draft): who this server is and how to connect, before connecting. */
import { answerPublicDocument } from "../../server-card";
import { guardHost } from "../../../../mcp/kit";

export default defineEventHandler({
  // Its URLs are built from Host: only a Host this server answers to gets that far. Any origin may read it.
  onRequest: [guardHost],
  handler: (event) => answerPublicDocument(event, "server-card"),
});
