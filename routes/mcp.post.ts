/**
 * POST /mcp: each step lets the request through or answers it itself (server/mcp/README.md, "How a request flows"):
 * guard → authenticate → request checks → read and validate → authorize → open its `requestState` → respond (JSON, or SSE).
 */
import { authenticate, authorize, inSteps, runRequestChecks } from "../server/mcp/hooks";
import { guardOriginAndHost } from "../server/mcp/http/guard";
import { respond } from "../server/mcp/http/respond";
import { readMcpRequest } from "../server/mcp/read-request";
import { openRequestState } from "../server/mcp/state/request-state";

export default defineEventHandler(
  inSteps([guardOriginAndHost, authenticate, runRequestChecks, readMcpRequest, authorize, openRequestState], respond),
);
