/**
 * The dispatcher: method name → handler, then the result (or error) as a JSON-RPC response,
 * shaped for the request's era: a 2026-07-28 result gets `resultType` and
 * `_meta["io.modelcontextprotocol/serverInfo"]`, keeping any `_meta` the handler set (the legacy
 * era's shapes are the legacy feature's). Methods exist only when the capability behind them does:
 * a server with no prompts answers `prompts/list` with -32601, as its discover result promises.
 */
import type { Era, McpContext, OpenedState } from "./context";
import { useMcpConfig } from "./config";
import { methodNotFound } from "./errors";
import { addedMethods, useLegacyEra, type Retry } from "./features";
import { errorReply, toMcpError, type JsonRpcReply } from "./http/error-reply";
import { resultMessage } from "./jsonrpc";
import { complete } from "./methods/completion";
import { discover } from "./methods/discover";
import { listen } from "./methods/listen";
import { getPrompt, listPrompts } from "./methods/prompts";
import { listResourceTemplates, listResources, readResource } from "./methods/resources";
import { callTool, listTools } from "./methods/tools";
import type { MethodHandler } from "./methods/types";
import { isInputRequiredOutcome, isTaskCreatedOutcome } from "./outcome";
import { META, type InputRequest } from "./protocol";
import { registry } from "./registry";

let serverInfoMeta: Record<string, unknown> | undefined;
const serverInfo = () => (serverInfoMeta ??= { [META.serverInfo]: useMcpConfig().serverInfo });

/** A copy of `result` with its `resultType` and the server's identity in `_meta`. Never mutates: a handler may return the same object every time. */
function shaped(result: Readonly<Record<string, unknown>>, resultType: string): Record<string, unknown> {
  const meta = result._meta as Record<string, unknown> | undefined;
  // Object.assign rather than `{ ...result, resultType }`: with Node 20's V8, each property written
  // after a spread costs about a microsecond, on every response.
  return Object.assign({}, result, { resultType, _meta: meta ? Object.assign({}, meta, serverInfo()) : serverInfo() });
}

export const completeResult = (result: Readonly<Record<string, unknown>>) => shaped(result, "complete");

const inputRequiredResult = (inputRequests: Readonly<Record<string, InputRequest>>, requestState: string) => ({
  resultType: "input_required",
  inputRequests,
  requestState,
  _meta: serverInfo(),
});

/** A task just created (the tasks extension): its `Task` fields, flat, with `resultType: "task"`. */
const taskResult = (task: Readonly<Record<string, unknown>>) => shaped(task, "task");

const { capabilities } = registry;
/** The core's methods both eras share, present only when the capability behind them is. */
const shared = new Map<string, MethodHandler>();
if (capabilities.tools) shared.set("tools/list", listTools).set("tools/call", callTool);
if (capabilities.prompts) shared.set("prompts/list", listPrompts).set("prompts/get", getPrompt);
if (capabilities.resources) {
  shared.set("resources/list", listResources).set("resources/templates/list", listResourceTemplates).set("resources/read", readResource);
}
if (capabilities.completions) shared.set("completion/complete", complete);

let methods: Record<Era, ReadonlyMap<string, MethodHandler>> | undefined;
/** Built on the first request, once every feature's plugin added its methods (the 2025 era's are all the legacy feature's). */
function methodsOf(era: Era): ReadonlyMap<string, MethodHandler> {
  methods ??= {
    modern: new Map([["server/discover", discover], ["subscriptions/listen", listen], ...shared, ...addedMethods("modern")]),
    legacy: new Map([...addedMethods("legacy"), ...shared]),
  };
  return methods[era];
}

/** The `requestState` steps (state/request-state.ts, which the route hands over): seal a handler's state; open a retry's. */
export interface StateSteps {
  seal(mcp: McpContext, data: Readonly<Record<string, unknown>>): Promise<string>;
  open(round: McpContext): Promise<{ state?: OpenedState; inputResponses: Readonly<Record<string, unknown>> }>;
}

/** The client's retry, made by the server (the 2025 era's asking): the state sealed, opened (claimed when single use), the handler run again. */
function retryOf(mcp: McpContext, handler: MethodHandler, steps: StateSteps): Retry {
  return async (outcome, inputResponses) => {
    const params = { ...mcp.params, inputResponses, requestState: await steps.seal(mcp, outcome.state) };
    const round: McpContext = Object.create(mcp, { params: { value: params } });
    return handler(Object.assign(round, await steps.open(round)));
  };
}

async function result(mcp: McpContext, steps: StateSteps): Promise<Record<string, unknown>> {
  const handler = methodsOf(mcp.era).get(mcp.method);
  if (!handler) throw methodNotFound(mcp.method);
  const outcome = await handler(mcp);
  const legacyEra = mcp.era === "legacy" ? useLegacyEra() : undefined;
  // Tasks are only ever created for a 2026-07-28 request that declared the extension.
  if (isTaskCreatedOutcome(outcome)) return taskResult(outcome.task);
  if (!isInputRequiredOutcome(outcome)) return legacyEra ? legacyEra.result(outcome) : completeResult(outcome);
  if (legacyEra) return legacyEra.inputRequired(mcp, outcome, retryOf(mcp, handler, steps));
  return inputRequiredResult(outcome.inputRequests, await steps.seal(mcp, outcome.state));
}

export async function dispatch(mcp: McpContext, steps: StateSteps): Promise<JsonRpcReply> {
  try {
    const value = await result(mcp, steps);
    const outcome = { resultType: (value.resultType as string | undefined) ?? "complete", toolError: value.isError === true };
    return { status: 200, body: resultMessage(mcp.id, value), outcome };
  } catch (caught) {
    const error = toMcpError(caught);
    const legacyEra = mcp.era === "legacy" ? useLegacyEra() : undefined;
    return errorReply(mcp.id, legacyEra ? legacyEra.error(error) : error);
  }
}
