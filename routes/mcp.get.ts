/**
 * GET /mcp (more specific than `routes/mcp.ts`): after the Origin/Host guard, the first feature's responder that takes
 * the request (`addGetResponder` in features.ts: the front page for a browser, the 2025 era's stream for a session),
 * else 405 as for any other verb: 2026-07-28 has no GET stream.
 */
import { getResponders } from "../server/mcp/features";
import { guardOriginAndHost } from "../server/mcp/http/guard";
import { refuseMethod } from "../server/mcp/http/not-allowed";

export default defineEventHandler({
  onRequest: [guardOriginAndHost],
  handler(event) {
    for (const responder of getResponders()) {
      const answer = responder(event);
      if (answer !== undefined) return answer;
    }
    return refuseMethod(event);
  },
});
