/**
 * POST /mcp — the MCP endpoint. Each step either lets the request through or answers it
 * itself (a refusal with the spec's code and status, or 202 for a notification):
 *
 * 1. guard Origin and Host (403), add CORS headers;
 * 2. authenticate the caller (401; everyone is `anonymous` without the sign-in feature);
 * 3. run the checks optional features added (`features.ts`), e.g. a rate limit (429),
 *    before the body is read;
 * 4. read and validate the request into `event.context.mcp`: body, JSON-RPC envelope, `_meta`,
 *    mirrored headers, version, target (and the caller's right to it);
 * 5. open its `requestState` (verified, claimed if single use);
 * 6. respond: dispatch to the method and write the result as JSON, or as SSE once the
 *    handler sends a notification; a state the handler returns is sealed by `sealRequestState`
 *    (and a retry the server makes itself, asking a 2025-era client, is opened by `openIncomingState`).
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
