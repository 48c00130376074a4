/**
 * POST /mcp: each step lets the request through or answers it itself (server/mcp/README.md, "How a request flows"):
 * guard → authenticate → features' checks → read and validate → open its `requestState` → respond (JSON, or SSE).
 */
import { authenticate, runRequestChecks } from "../server/mcp/features";
import { guardOriginAndHost } from "../server/mcp/http/guard";
import { respond } from "../server/mcp/http/respond";
import { readMcpRequest } from "../server/mcp/read-request";
import { openIncomingState, openRequestState, sealRequestState } from "../server/mcp/state/request-state";

const stateSteps = { seal: sealRequestState, open: openIncomingState };

export default defineEventHandler({
  onRequest: [guardOriginAndHost, authenticate, runRequestChecks, readMcpRequest, openRequestState],
  handler: (event) => respond(event, event.context.mcp!, stateSteps),
});
