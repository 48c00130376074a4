/**
 * The dispatcher: method name → handler, then the result (or error) as a JSON-RPC response,
 * shaped for the request's era. Methods exist only when the capability behind them does:
 * a server with no prompts answers `prompts/list` with -32601, as its discover result promises.
 */
import type { McpContext } from "./context";
import { StorageUnavailableError } from "../storage/atomic";
import { McpError, internalError, methodNotFound, storageUnavailable } from "./errors";
import type { RequestOutcome } from "./http/request-log";
import { errorBody, errorMessage, resultMessage } from "./jsonrpc";
import { initialize, legacyError, legacyInputRequired, legacyResult, ping, setLogLevel } from "./legacy";
import { complete } from "./methods/completion";
import { discover } from "./methods/discover";
import { listen } from "./methods/listen";
import { getPrompt, listPrompts } from "./methods/prompts";
import { listResourceTemplates, listResources, readResource } from "./methods/resources";
import { getSkill, listSkills, readDirectory } from "./methods/skills";
import { cancelTask, getTask, updateTask } from "./methods/tasks";
import { callTool, listTools } from "./methods/tools";
import type { MethodHandler } from "./methods/types";
import { logError, logWithReference } from "./log";
import { isInputRequiredOutcome, isTaskCreatedOutcome } from "./outcome";
import { EXTENSIONS, type RequestId } from "./protocol";
import { registry } from "./registry";
import { completeResult, inputRequiredResult, taskResult } from "./results";
import { sealOutgoingState } from "./state/request-state";

const { capabilities } = registry;
/** The methods both eras share, present only when the capability behind them is. */
const features = new Map<string, MethodHandler>();
if (capabilities.tools) features.set("tools/list", listTools).set("tools/call", callTool);
if (capabilities.prompts) features.set("prompts/list", listPrompts).set("prompts/get", getPrompt);
if (capabilities.resources) {
  features.set("resources/list", listResources).set("resources/templates/list", listResourceTemplates).set("resources/read", readResource);
}
if (capabilities.completions) features.set("completion/complete", complete);
if (capabilities.extensions?.[EXTENSIONS.skills]) {
  features.set("skills/list", listSkills).set("skills/get", getSkill).set("resources/directory/read", readDirectory);
}

/** 2026-07-28 only: the tasks extension is not defined on the 2025 wire. */
const modernFeatures = new Map<string, MethodHandler>();
if (capabilities.extensions?.[EXTENSIONS.tasks]) modernFeatures.set("tasks/get", getTask).set("tasks/update", updateTask).set("tasks/cancel", cancelTask);

const methods: Record<McpContext["era"], ReadonlyMap<string, MethodHandler>> = {
  modern: new Map([["server/discover", discover], ["subscriptions/listen", listen], ...features, ...modernFeatures]),
  legacy: new Map([["initialize", initialize], ["ping", ping], ["logging/setLevel", setLogLevel], ...features]),
};

export interface JsonRpcReply {
  readonly status: number;
  readonly body: string;
  /** How it ended, for the request's log line and span. */
  readonly outcome: RequestOutcome;
}

/** Any thrown value as an `McpError`; an unexpected one is logged with a reference, never echoed. */
function toMcpError(error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof StorageUnavailableError) {
    logError(error.message);
    return storageUnavailable();
  }
  return internalError(`Internal error (reference ${logWithReference("internal error", error)})`);
}

/** Any thrown value as a JSON-RPC error reply. */
export function errorReply(id: RequestId | undefined, caught: unknown): JsonRpcReply {
  const error = toMcpError(caught);
  return {
    status: error.httpStatus,
    body: errorMessage(id ?? error.requestId, errorBody(error)),
    outcome: { errorCode: error.code, errorMessage: error.message },
  };
}

async function result(mcp: McpContext): Promise<Record<string, unknown>> {
  const handler = methods[mcp.era].get(mcp.method);
  if (!handler) throw methodNotFound(mcp.method);
  const outcome = await handler(mcp);
  // Tasks are only ever created for a 2026-07-28 request that declared the extension.
  if (isTaskCreatedOutcome(outcome)) return taskResult(outcome.task);
  if (!isInputRequiredOutcome(outcome)) return mcp.era === "legacy" ? legacyResult(outcome) : completeResult(outcome);
  if (mcp.era === "legacy") return legacyInputRequired(mcp, outcome);
  return inputRequiredResult(outcome.inputRequests, await sealOutgoingState(mcp, outcome.state));
}

export async function dispatch(mcp: McpContext): Promise<JsonRpcReply> {
  try {
    const value = await result(mcp);
    const outcome = { resultType: (value.resultType as string | undefined) ?? "complete", toolError: value.isError === true };
    return { status: 200, body: resultMessage(mcp.id, value), outcome };
  } catch (caught) {
    const error = toMcpError(caught);
    return errorReply(mcp.id, mcp.era === "legacy" ? legacyError(error) : error);
  }
}
