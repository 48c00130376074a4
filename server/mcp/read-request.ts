import { sendNoContent, type H3Event } from "h3";
import { useMcpConfig } from "./config";
import type { ContextFields, McpContext, RequestMeta, RequestTarget } from "./context";
import { invalidParams, invalidRequest, unsupportedProtocolVersion } from "./errors";
import { inRequestScope, registered, runMessageChecks, tellObservers } from "./hooks";
import { readBodyText } from "#mcp-platform";
import { BodyTimeoutError, BodyTooLargeError } from "./http/body";
import { callerKey } from "./http/caller";
import { ResponseChannel, disconnectWatcher } from "./http/channel";
import { sendError } from "./http/error-reply";
import { isPlainObject } from "./internal/basics";
import {
  checkMethodHeaders,
  checkParamHeaders,
  checkVersionHeader,
  hasModernMeta,
  INPUT_REQUIRED_METHODS,
  MODERN_PROTOCOL_VERSION,
  nameFieldOf,
  parseJsonRpcMessage,
  parseRequestMeta,
  requestHeader,
  type HeaderReader,
  type JsonRpcRequest,
  type RequestId,
} from "./protocol";
import { registry, supportedProtocolVersions } from "./registry";
import { takeShare } from "./shares";

const JSON_CONTENT_TYPE = /^application\/json\s*(?:;|$)/i;

/**
 * What a request acts on (the tool or prompt `name`, the resource `uri`) and its definition; undefined when the method has
 * none or names it with a non-string. Resolved once: the `Mcp-Name` check, the state's binding and the methods read it.
 * @example const entry = resolveTarget("tools/call", { name: "delete_note" })?.entry; // its ToolEntry, if registered
 */
export function resolveTarget(method: string, params: Readonly<Record<string, unknown>>): RequestTarget | undefined {
  if (!INPUT_REQUIRED_METHODS.has(method)) return undefined;
  const field = nameFieldOf(method);
  const name = field && params[field];
  if (typeof name !== "string") return undefined;
  if (method === "tools/call") return { name, entry: registry().toolsByName.get(name), variables: {} };
  if (method === "prompts/get") return { name, entry: registry().promptsByName.get(name), variables: {} };
  const found = registry().findResource(name);
  return { name, entry: found?.entry, variables: found?.variables ?? {} };
}

/** A request with the 2026-07-28 envelope must name that version. Throws -32022 (400) otherwise. */
function requireModernVersion(requested: string): void {
  if (requested === MODERN_PROTOCOL_VERSION) return;
  const viaAdapter = registered.adapters.some((adapter) => adapter.versions.includes(requested));
  const message = viaAdapter
    ? `Protocol version ${requested} is served through initialize, without the per-request _meta envelope`
    : "Unsupported protocol version";
  throw unsupportedProtocolVersion(requested, supportedProtocolVersions(), message);
}

/** 2026-07-28: `_meta`, the mirrored headers, the version, and `inputResponses`' shape, all checked up front. */
function modernMeta(read: HeaderReader, message: JsonRpcRequest, target: RequestTarget | undefined): RequestMeta {
  const meta = parseRequestMeta(message.params);
  checkVersionHeader(read, meta.protocolVersion);
  requireModernVersion(meta.protocolVersion);
  checkMethodHeaders(read, message);
  if (target?.entry?.kind === "tool") checkParamHeaders(read, target.entry.headerParams, message.params.arguments);
  if ("inputResponses" in message.params && !isPlainObject(message.params.inputResponses)) {
    throw invalidParams("params.inputResponses must be an object mapping input request keys to responses");
  }
  return meta;
}

/** The first adapter's reading of a request without the 2026-07-28 envelope, or undefined when no adapter claims it. */
async function adaptedMeta(
  event: H3Event,
  message: JsonRpcRequest,
): Promise<{ name: string; meta: RequestMeta } | undefined> {
  for (const adapter of registered.adapters) {
    const meta = await adapter.read(event, message);
    if (meta) return { name: adapter.name, meta };
  }
  if (message.method === "initialize") {
    // A 2026-only server names the versions it speaks: older clients have no other way to find out.
    const requested = String(message.params.protocolVersion ?? "(none)");
    throw unsupportedProtocolVersion(
      requested,
      [MODERN_PROTOCOL_VERSION],
      `Unsupported protocol version ${requested}: this server speaks MCP ${MODERN_PROTOCOL_VERSION} only`,
    );
  }
  return undefined;
}

/** The fields of a `RequestContext`, which its constructor assigns (`state` comes later, from `openRequestState`). */
// biome-ignore lint/correctness/noUnusedVariables: it declares the fields of the class below, whose name it shares
interface RequestContext extends Writable<ContextFields> {}
type Writable<T> = { -readonly [Key in keyof T]: T[Key] };

/**
 * A request's `McpContext`: `signal` and `caller` are worked out only when a handler (or a limit) asks for them. A class,
 * not an object literal with getters: a literal's getters are closures of its own, so every request would get a hidden
 * class of its own, which V8 keeps until a full collection, and with it all the request reaches: the young generation's
 * cheap collections would free none of it. Each field assigned by name: a copy (`Object.assign`) takes V8's slow path. The
 * compiler does not check that the constructor assigns every field of `ContextFields`: a field added there is added here.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface declares what the constructor assigns
class RequestContext implements McpContext {
  /** `caller`, once worked out (a plain field: `contextWith` copies it). */
  knownCaller: string | undefined = undefined;

  constructor(event: H3Event, message: JsonRpcRequest, meta: RequestMeta, target?: RequestTarget, adapter?: string) {
    const auth = event.context.mcpAuth!;
    this.id = message.id;
    this.method = message.method;
    this.params = message.params;
    this.protocolVersion = meta.protocolVersion;
    this.clientCapabilities = meta.clientCapabilities;
    this.clientInfo = meta.clientInfo;
    this.logLevel = meta.logLevel;
    this.progressToken = meta.progressToken;
    this.adapter = adapter;
    this.target = target;
    this.principal = auth.principal;
    this.auth = auth;
    this.inputResponses = {};
    this.event = event;
    this.channel = new ResponseChannel(disconnectWatcher(event), meta.progressToken);
  }

  get signal(): AbortSignal {
    return this.channel.signal;
  }

  get caller(): string {
    this.knownCaller ??= callerKey(this.event, this.auth);
    return this.knownCaller;
  }
}

/** The request's context, with the channel its notifications go to: at once for 2026-07-28 (no adapter to wait for). */
function createMcpContext(event: H3Event, message: JsonRpcRequest): McpContext | Promise<McpContext> {
  const target = resolveTarget(message.method, message.params);
  const read = (name: string) => requestHeader(event, name);
  if (hasModernMeta(message.params))
    return new RequestContext(event, message, modernMeta(read, message, target), target);
  return adaptedMeta(event, message).then((adapted) => {
    const meta = adapted?.meta ?? modernMeta(read, message, target);
    return new RequestContext(event, message, meta, target, adapted?.name);
  });
}

/** Reads and validates the request into `event.context.mcp`, or ends it with the right error (or 202 for a notification). */
export async function readMcpRequest(event: H3Event): Promise<void> {
  let id: RequestId | undefined;
  try {
    if (!JSON_CONTENT_TYPE.test(requestHeader(event, "content-type") ?? "")) {
      throw invalidRequest("Content-Type must be application/json", 415);
    }
    const { maxBodyBytes: maxBytes, bodyTimeoutMs: timeoutMs } = useMcpConfig();
    // A body still arriving holds a unit of its caller's share of bodies (taken by the platform only if it must wait for one).
    const hold = () => takeShare("bodies", callerKey(event, event.context.mcpAuth));
    const message = parseJsonRpcMessage(await readBodyText(event, { maxBytes, timeoutMs, hold }));
    if (message.kind !== "request") {
      const refusal = await runMessageChecks(event, message);
      if (refusal) return sendError(event, undefined, refusal);
      // An adapter takes what its clients POST besides requests (answers, cancellations); anything else is 202, or refused.
      for (const adapter of registered.adapters) {
        const received = adapter.receive?.(event, message);
        if (received) return await received;
      }
      if (message.kind === "notification") return sendNoContent(event, 202);
      throw invalidRequest("Clients must not send JSON-RPC responses to this server: nothing was asked");
    }
    id = message.id;
    event.context.mcpMessage = message;
    tellObservers("read", event, message);
    // Each awaited only when a promise (a microtask each): most servers add no message checks, and a 2026-07-28 context
    // is built at once.
    const checked = runMessageChecks(event, message);
    const refusal = checked && (await checked);
    if (refusal) return sendError(event, id, refusal);
    const mcp = inRequestScope(event, () => createMcpContext(event, message));
    event.context.mcp = mcp instanceof Promise ? await mcp : mcp;
  } catch (error) {
    // An unread remainder must not be parsed as the next request on this connection.
    const unread = (error instanceof BodyTooLargeError && !error.drained) || error instanceof BodyTimeoutError;
    return sendError(event, id, error, unread ? { connection: "close" } : undefined);
  }
}
