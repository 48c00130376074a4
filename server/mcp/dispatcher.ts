/**
 * The dispatcher: method name → handler, then the result (or error) as a JSON-RPC response,
 * shaped for the request's era. Methods exist only when the capability behind them does:
 * a server with no prompts answers `prompts/list` with -32601, as its discover result promises.
 */
import type { McpContext } from "./context";
import { methodNotFound } from "./errors";
import { useLegacyEra } from "./features";
import { errorReply, toMcpError, type JsonRpcReply } from "./http/error-reply";
import { resultMessage } from "./jsonrpc";
import { complete } from "./methods/completion";
import { discover } from "./methods/discover";
import { listen } from "./methods/listen";
import { getPrompt, listPrompts } from "./methods/prompts";
import { listResourceTemplates, listResources, readResource } from "./methods/resources";
import { getSkill, listSkills, readDirectory } from "./methods/skills";
import { cancelTask, getTask, updateTask } from "./methods/tasks";
import { callTool, listTools } from "./methods/tools";
import type { MethodHandler } from "./methods/types";
import { isInputRequiredOutcome, isTaskCreatedOutcome } from "./outcome";
import { EXTENSIONS } from "./protocol";
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

const modern = new Map([["server/discover", discover], ["subscriptions/listen", listen], ...features, ...modernFeatures]);
/** The 2025 era's methods, once its feature registered (plugins run before the first request). */
let legacy: ReadonlyMap<string, MethodHandler> | undefined;
const methodsOf = (era: McpContext["era"]): ReadonlyMap<string, MethodHandler> =>
  era === "modern" ? modern : (legacy ??= new Map([...(useLegacyEra()?.methods ?? []), ...features]));

async function result(mcp: McpContext): Promise<Record<string, unknown>> {
  const handler = methodsOf(mcp.era).get(mcp.method);
  if (!handler) throw methodNotFound(mcp.method);
  const outcome = await handler(mcp);
  const legacyEra = mcp.era === "legacy" ? useLegacyEra() : undefined;
  // Tasks are only ever created for a 2026-07-28 request that declared the extension.
  if (isTaskCreatedOutcome(outcome)) return taskResult(outcome.task);
  if (!isInputRequiredOutcome(outcome)) return legacyEra ? legacyEra.result(outcome) : completeResult(outcome);
  if (legacyEra) return legacyEra.inputRequired(mcp, outcome);
  return inputRequiredResult(outcome.inputRequests, await sealOutgoingState(mcp, outcome.state));
}

export async function dispatch(mcp: McpContext): Promise<JsonRpcReply> {
  try {
    const value = await result(mcp);
    const outcome = { resultType: (value.resultType as string | undefined) ?? "complete", toolError: value.isError === true };
    return { status: 200, body: resultMessage(mcp.id, value), outcome };
  } catch (caught) {
    const error = toMcpError(caught);
    const legacyEra = mcp.era === "legacy" ? useLegacyEra() : undefined;
    return errorReply(mcp.id, legacyEra ? legacyEra.error(error) : error);
  }
}
