/**
 * The dispatcher: method name → handler, then the result (or error) as a JSON-RPC response.
 * Methods exist only when the capability behind them does: a server with no prompts
 * answers `prompts/list` with -32601, as its discover result promises.
 */
import type { McpContext } from "./context";
import { McpError, internalError, methodNotFound } from "./errors";
import { isInputRequiredOutcome } from "./input-required";
import { errorBody, errorMessage, resultMessage } from "./jsonrpc";
import { complete } from "./methods/completion";
import { discover } from "./methods/discover";
import { listen } from "./methods/listen";
import { getPrompt, listPrompts } from "./methods/prompts";
import { listResourceTemplates, listResources, readResource } from "./methods/resources";
import { callTool, listTools } from "./methods/tools";
import type { MethodHandler } from "./methods/types";
import type { RequestId } from "./protocol";
import { registry } from "./registry";
import { completeResult, inputRequiredResult } from "./results";
import { markRedeemed } from "./state/redemptions";

const { capabilities } = registry;
const methods = new Map<string, MethodHandler>([
  ["server/discover", discover],
  ["subscriptions/listen", listen],
  ...(capabilities.tools ? ([["tools/list", listTools], ["tools/call", callTool]] as const) : []),
  ...(capabilities.prompts ? ([["prompts/list", listPrompts], ["prompts/get", getPrompt]] as const) : []),
  ...(capabilities.resources
    ? ([
        ["resources/list", listResources],
        ["resources/templates/list", listResourceTemplates],
        ["resources/read", readResource],
      ] as const)
    : []),
  ...(capabilities.completions ? ([["completion/complete", complete]] as const) : []),
]);

export interface JsonRpcReply {
  readonly status: number;
  readonly body: string;
}

/** Any thrown value as a JSON-RPC error reply; unexpected errors are logged with a reference, never echoed. */
export function errorReply(id: RequestId | undefined, error: unknown): JsonRpcReply {
  if (error instanceof McpError) return { status: error.httpStatus, body: errorMessage(id ?? error.requestId, errorBody(error)) };
  const reference = crypto.randomUUID();
  console.error(`[mcp] internal error (reference ${reference}):`, error);
  return { status: 500, body: errorMessage(id, errorBody(internalError(`Internal error (reference ${reference})`))) };
}

export async function dispatch(mcp: McpContext): Promise<JsonRpcReply> {
  try {
    const handler = methods.get(mcp.method);
    if (!handler) throw methodNotFound(mcp.method);
    const outcome = await handler(mcp);
    const result = isInputRequiredOutcome(outcome) ? await inputRequiredResult(mcp, outcome) : completeResult(outcome);
    if (mcp.state?.singleUse) await markRedeemed(mcp.state.id, mcp.state.expiresAt);
    return { status: 200, body: resultMessage(mcp.id, result) };
  } catch (error) {
    return errorReply(mcp.id, error);
  }
}
