/**
 * Method → handler, then the reply shaped for the request's era; the methods of the registry's definitions are here too.
 * A method exists only when its capability does: without prompts, `prompts/list` is -32601, as discover promises.
 */
import type { Era, McpContext, OpenedState } from "./context";
import { useMcpConfig } from "./config";
import { invalidParams, methodNotFound, ResourceNotFoundError } from "./errors";
import { addedMethods, useLegacyEra, useTaskRunner, type Retry } from "./features";
import { errorReply, toMcpError, type JsonRpcReply } from "./http/error-reply";
import { isPlainObject } from "./internal/basics";
import { META, resultMessage, type CacheScope, type Resource } from "./protocol";
import { complete } from "./methods/completion";
import { discover } from "./methods/discover";
import { listen } from "./methods/listen";
import type { MethodHandler, MethodResult } from "./methods/types";
import { isInputRequiredOutcome, isTaskCreatedOutcome } from "./outcome";
import { paginate } from "./pagination";
import { registry } from "./registry";

/** The shape every list method answers with: one page under its key, `nextCursor`, caching hints. */
export function listResult(
  key: string,
  items: readonly unknown[],
  mcp: McpContext,
  cacheScope?: CacheScope,
): MethodResult {
  const config = useMcpConfig();
  const page = paginate(items, mcp.params.cursor, config.pageSize, key);
  return {
    [key]: page.items,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    ...config.listCache,
    ...(cacheScope ? { cacheScope } : {}),
  };
}

/** `params.arguments` of tools/call and prompts/get: absent means none; anything but an object is -32602. */
function requireArguments(mcp: McpContext): Record<string, unknown> {
  const args = mcp.params.arguments;
  if (args === undefined) return {};
  if (!isPlainObject(args)) throw invalidParams("params.arguments must be an object");
  return args;
}

const tools = registry.tools.map((tool) => tool.descriptor);
const prompts = registry.prompts.map((prompt) => prompt.descriptor);
const fixedResources = registry.resources.map((entry) => entry.descriptor as Resource);
const templates = registry.templates.map((entry) => entry.descriptor);
/** Templates that list their resources at run time may list per caller: keep shared caches out. */
const resourceListScope = registry.templates.some((entry) => entry.list) ? "private" : undefined;
/** Resources are read fresh by default: results may be private to the caller and may change. */
const DEFAULT_READ_CACHE = { ttlMs: 0, cacheScope: "private" } as const;

async function callTool(mcp: McpContext): Promise<MethodResult> {
  if (!mcp.target) throw invalidParams("tools/call requires params.name (a string)");
  const tool = mcp.target.entry;
  if (tool?.kind !== "tool") throw invalidParams(`Unknown tool: ${mcp.target.name}`);
  const args = requireArguments(mcp);
  // A tool with `task` exists only with the tasks feature: the server refuses to start otherwise (plugins/mcp-startup.ts).
  return tool.task ? useTaskRunner()!({ ...tool, task: tool.task }, args, mcp) : tool.call(args, mcp);
}

async function getPrompt(mcp: McpContext): Promise<MethodResult> {
  if (!mcp.target) throw invalidParams("A prompt name (string) is required");
  const prompt = mcp.target.entry;
  if (prompt?.kind !== "prompt") throw invalidParams(`Unknown prompt: ${mcp.target.name}`);
  return prompt.get(requireArguments(mcp), mcp);
}

async function listResources(mcp: McpContext): Promise<MethodResult> {
  const listed = await Promise.all(registry.templates.map((entry) => entry.list?.(mcp) ?? []));
  return listResult("resources", [...fixedResources, ...listed.flat()], mcp, resourceListScope);
}

async function readResource(mcp: McpContext): Promise<MethodResult> {
  if (!mcp.target) throw invalidParams("resources/read requires params.uri (a string)");
  const { name: uri, entry, variables } = mcp.target;
  if (entry?.kind !== "resource") throw new ResourceNotFoundError(uri);
  const result = await entry.read(uri, variables, mcp);
  if (isInputRequiredOutcome(result)) return result;
  return { ...result, ...DEFAULT_READ_CACHE, ...entry.cache };
}

let serverInfoMeta: Record<string, unknown> | undefined;
const serverInfo = () => (serverInfoMeta ??= { [META.serverInfo]: useMcpConfig().serverInfo });

/** A copy of `result` with its `resultType` and the server's identity in `_meta`. Never mutates: a handler may return the same object every time. */
function shaped(result: Readonly<Record<string, unknown>>, resultType: string): Record<string, unknown> {
  const meta = result._meta as Record<string, unknown> | undefined;
  // Object.assign, not `{ ...result, resultType }`: on Node 20's V8 each property after a spread costs about 1 µs.
  return Object.assign({}, result, { resultType, _meta: meta ? Object.assign({}, meta, serverInfo()) : serverInfo() });
}

export const completeResult = (result: Readonly<Record<string, unknown>>) => shaped(result, "complete");

const { capabilities } = registry;
/** The core's methods both eras share. */
const shared = new Map<string, MethodHandler>();
if (capabilities.tools) shared.set("tools/list", (mcp) => listResult("tools", tools, mcp)).set("tools/call", callTool);
if (capabilities.prompts)
  shared.set("prompts/list", (mcp) => listResult("prompts", prompts, mcp)).set("prompts/get", getPrompt);
if (capabilities.resources) {
  shared
    .set("resources/list", listResources)
    .set("resources/templates/list", (mcp) => listResult("resourceTemplates", templates, mcp))
    .set("resources/read", readResource);
}
if (capabilities.completions) shared.set("completion/complete", complete);

let methods: Record<Era, ReadonlyMap<string, MethodHandler>> | undefined;
/** Built on the first request, once every feature's plugin added its methods (the 2025 era's are all the legacy feature's). */
function methodsOf(era: Era): ReadonlyMap<string, MethodHandler> {
  methods ??= {
    modern: new Map([
      ["server/discover", discover],
      ["subscriptions/listen", listen],
      ...shared,
      ...addedMethods("modern"),
    ]),
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
  // A task just created (only ever for a 2026-07-28 request that declared the extension): its `Task` fields, flat.
  if (isTaskCreatedOutcome(outcome)) return shaped(outcome.task, "task");
  if (!isInputRequiredOutcome(outcome)) return legacyEra ? legacyEra.result(outcome) : completeResult(outcome);
  if (legacyEra) return legacyEra.inputRequired(mcp, outcome, retryOf(mcp, handler, steps));
  return {
    resultType: "input_required",
    inputRequests: outcome.inputRequests,
    requestState: await steps.seal(mcp, outcome.state),
    _meta: serverInfo(),
  };
}

export async function dispatch(mcp: McpContext, steps: StateSteps): Promise<JsonRpcReply> {
  try {
    const value = await result(mcp, steps);
    const outcome = {
      resultType: (value.resultType as string | undefined) ?? "complete",
      toolError: value.isError === true,
    };
    return { status: 200, body: resultMessage(mcp.id, value), outcome };
  } catch (caught) {
    const error = toMcpError(caught);
    const legacyEra = mcp.era === "legacy" ? useLegacyEra() : undefined;
    return errorReply(mcp.id, legacyEra ? legacyEra.error(error) : error);
  }
}
