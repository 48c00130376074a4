/**
 * The route's last step: the request answered by its method, inside the features' middleware (`wrapDispatch`: the first
 * added outermost), what it answers shaped for the wire (an "ask first" is sealed here, beside where it is opened:
 * `state/request-state.ts`), and the response written: one JSON body, or an SSE stream when the handler sent
 * notifications first. (The steps before it refuse a request with `sendError`, in error-reply.ts.)
 *
 * A method exists only when its capability does: without prompts, `prompts/list` is -32601, as discover promises. A request
 * read by an adapter (another protocol revision) reaches the methods every revision has and those a feature added for
 * adapters; `server/discover`, `subscriptions/listen` and the rest are 2026-07-28's own.
 */
import { setResponseHeaders, setResponseStatus, type H3Event } from "h3";
import type { McpContext } from "../context";
import type { Entry } from "../entries";
import { invalidParams, methodNotFound, ResourceNotFoundError } from "../errors";
import { chainAround, inRequestScope, listedDescriptor, registered, type Next, type Outcome } from "../hooks";
import { isPlainObject } from "../internal/basics";
import { complete } from "../methods/completion";
import { discover } from "../methods/discover";
import { listen } from "../methods/listen";
import type { MethodHandler } from "../methods/types";
import { isFinalResult, isInputRequiredOutcome, listResult, serverInfo, shapeResult } from "../outcome";
import { type Resource, resultMessage } from "../protocol";
import { type Registry, registry, serverCapabilities } from "../registry";
import { sealRequestState } from "../state/request-state";
import { SSE_HEADERS } from "./channel";
import { errorReply, type JsonRpcReply } from "./error-reply";

// ——— the methods ———

/** `params.arguments` of tools/call and prompts/get: absent means none; anything but an object is -32602. */
function requireArguments(mcp: McpContext): Record<string, unknown> {
  const args = mcp.params.arguments;
  if (args === undefined) return {};
  if (!isPlainObject(args)) throw invalidParams("params.arguments must be an object");
  return args;
}

/** The request's definition, when it is of `kind`: -32602 without a name (or URI), `unknown(name)` without one of that kind. */
function targetOf<Kind extends Entry["kind"]>(mcp: McpContext, kind: Kind, unknown: (name: string) => Error) {
  if (!mcp.target)
    throw invalidParams(`${mcp.method} requires params.${kind === "resource" ? "uri" : "name"} (a string)`);
  const { entry, name } = mcp.target;
  if (entry?.kind !== kind) throw unknown(name);
  return entry as Extract<Entry, { kind: Kind }>;
}

const callTool = (mcp: McpContext) =>
  targetOf(mcp, "tool", (name) => invalidParams(`Unknown tool: ${name}`)).call(requireArguments(mcp), mcp);

const getPrompt = (mcp: McpContext) =>
  targetOf(mcp, "prompt", (name) => invalidParams(`Unknown prompt: ${name}`)).get(requireArguments(mcp), mcp);

/** resources/list: the fixed resources, then those templates and features list at run time. */
function listResources({ resources, templates }: Registry): MethodHandler {
  const fixed = resources.map((entry) => listedDescriptor(entry) as Resource);
  // Templates that list their resources at run time may list per caller: keep shared caches out.
  const scope = templates.some((entry) => entry.list) ? "private" : undefined;
  return async (mcp) => {
    const listed = await Promise.all(templates.map((entry) => entry.list?.(mcp) ?? []));
    const served = registered.servedResources.flatMap((resources) => resources.listed ?? []);
    return listResult("resources", [...fixed, ...listed.flat(), ...served], mcp, scope);
  };
}

async function readResource(mcp: McpContext): Promise<Outcome> {
  const entry = targetOf(mcp, "resource", (uri) => new ResourceNotFoundError(uri));
  const result = await entry.read(mcp.target!.name, mcp.target!.variables, mcp);
  // Read fresh by default: results may be private to the caller and may change.
  return isInputRequiredOutcome(result) ? result : { ...result, ttlMs: 0, cacheScope: "private", ...entry.cache };
}

let tables: ReturnType<typeof methodTables> | undefined;
let chain: Next | undefined;

/** The methods every protocol revision has, for the capabilities this server declares. */
function everyRevision(): Map<string, MethodHandler> {
  const capabilities = serverCapabilities();
  const definitions = registry();
  const tools = definitions.tools.map(listedDescriptor);
  const prompts = definitions.prompts.map(listedDescriptor);
  const templates = definitions.templates.map(listedDescriptor);
  const methods = new Map<string, MethodHandler>();
  if (capabilities.tools)
    methods.set("tools/list", (mcp) => listResult("tools", tools, mcp)).set("tools/call", callTool);
  if (capabilities.prompts)
    methods.set("prompts/list", (mcp) => listResult("prompts", prompts, mcp)).set("prompts/get", getPrompt);
  if (capabilities.resources) {
    methods
      .set("resources/list", listResources(definitions))
      .set("resources/templates/list", (mcp) => listResult("resourceTemplates", templates, mcp))
      .set("resources/read", readResource);
  }
  if (capabilities.completions) methods.set("completion/complete", complete);
  return methods;
}

/** The method tables: built on the first request, once every feature's plugin added its methods and middleware. */
function methodTables(): { modern: ReadonlyMap<string, MethodHandler>; adapted: ReadonlyMap<string, MethodHandler> } {
  // Adapters get every revision's methods and those added for them; 2026-07-28 its own too, and every one added.
  const adapted = everyRevision();
  const modern = new Map([["server/discover", discover], ["subscriptions/listen", listen], ...adapted]);
  for (const [name, { handler, adapted: forAdapters }] of registered.methods) {
    modern.set(name, handler);
    if (forAdapters) adapted.set(name, handler);
  }
  return { modern, adapted };
}

/** The handler of the request's method (-32601 when there is none for its protocol revision). */
function callMethod(mcp: McpContext): Promise<Outcome> | Outcome {
  tables ??= methodTables();
  const handler = (mcp.adapter ? tables.adapted : tables.modern).get(mcp.method);
  if (!handler) throw methodNotFound(mcp.method);
  return handler(mcp);
}

/**
 * What the request is answered with, through every middleware (and, for a request an adapter read, the adapter's layer
 * outside them): a result, `inputRequired(…)`, or a `finalResult(…)`.
 */
function dispatch(mcp: McpContext): Promise<Outcome> {
  chain ??= chainAround(async (request) => await callMethod(request));
  const adapter = mcp.adapter === undefined ? undefined : registered.adapters.find(({ name }) => name === mcp.adapter);
  return adapter ? adapter.serve(mcp, chain) : chain(mcp);
}

// ——— the answer ———

/** The outcome as the wire carries it: `input_required` with the state sealed, a final result as it is, else `complete`. */
function shaped(mcp: McpContext, outcome: Outcome): Record<string, unknown> | Promise<Record<string, unknown>> {
  if (isFinalResult(outcome)) return outcome.result as Record<string, unknown>;
  if (!isInputRequiredOutcome(outcome)) return shapeResult(outcome, "complete");
  return sealRequestState(mcp, outcome.state).then((requestState) => ({
    resultType: "input_required",
    inputRequests: outcome.inputRequests,
    requestState,
    _meta: serverInfo(),
  }));
}

async function reply(mcp: McpContext): Promise<JsonRpcReply> {
  try {
    let result = shaped(mcp, await dispatch(mcp));
    if (result instanceof Promise) result = await result;
    const resultType = (result.resultType as string | undefined) ?? "complete";
    return {
      status: 200,
      body: resultMessage(mcp.id, result),
      outcome: { resultType, toolError: result.isError === true },
    };
  } catch (caught) {
    return errorReply(mcp.id, caught);
  }
}

/** Step of `POST /mcp`: the response body, JSON text or an SSE stream. */
export async function respond(event: H3Event): Promise<string | ReadableStream<Uint8Array>> {
  const mcp = event.context.mcp!;
  const answered = inRequestScope(event, () => reply(mcp));
  // Whichever comes first: the final reply (→ one JSON body) or a notification (→ SSE).
  // A handler may notify before its first await, so the channel replays one already buffered.
  const first = await new Promise<JsonRpcReply | undefined>((resolve) => {
    mcp.channel.whenFirstNotification(() => resolve(undefined));
    void answered.then(resolve);
  });
  if (first) {
    event.context.mcpOutcome = first.outcome;
    mcp.channel.finish(first.body);
    setResponseStatus(event, first.status);
    setResponseHeaders(event, { "content-type": "application/json", ...first.headers });
    return first.body;
  }
  // Streaming commits to 200: a final error (say -32021 raised after a progress notification)
  // travels in the stream with its JSON-RPC code, since HTTP allows no second status.
  setResponseStatus(event, 200);
  setResponseHeaders(event, SSE_HEADERS);
  const stream = mcp.channel.openStream();
  void answered.then((final) => {
    event.context.mcpOutcome = final.outcome;
    mcp.channel.finish(final.body);
  });
  return stream;
}
