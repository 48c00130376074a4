/** GET /mcp: after the guard, the first feature responder that takes it (`addGetResponder`), else 405: 2026-07-28 has no GET stream. */
import { registered } from "../server/mcp/hooks";
import { guardOriginAndHost } from "../server/mcp/http/guard";
import { refuseMethod } from "../server/mcp/http/not-allowed";

export default defineEventHandler({
  onRequest: [guardOriginAndHost],
  handler(event) {
    for (const responder of registered.getResponders) {
      const answer = responder(event);
      if (answer !== undefined) return answer;
    }
    return refuseMethod(event);
  },
});
