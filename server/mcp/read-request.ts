/**
 * A step of `POST /mcp`: reads the request into `event.context.mcp`, checking everything before any handler runs or any
 * `requestState` opens, and answers the refusals itself (the codes and statuses: README, "How a request flows").
 */
import { sendNoContent, type H3Event } from "h3";
import { useMcpConfig } from "./config";
import type { AuthInfo, McpContext, RequestTarget } from "./context";
import { invalidParams, invalidRequest } from "./errors";
import { runMessageChecks, useLegacyEra, useObserver, useSignIn } from "./features";
import { callerKey } from "./http/caller";
import { BodyTimeoutError, BodyTooLargeError, readBodyText } from "./http/body";
import { ResponseChannel } from "./http/respond";
import { sendError } from "./http/error-reply";
import {
  checkMethodHeaders,
  checkParamHeaders,
  checkVersionHeader,
  hasModernMeta,
  parseRequestMeta,
  readProgressToken,
  requestHeader,
  requireModernVersion,
  selectEra,
  type HeaderReader,
} from "./request-meta";
import { isPlainObject } from "./internal/basics";
import {
  parseJsonRpcMessage,
  type JsonRpcRequest,
  INPUT_REQUIRED_METHODS,
  nameFieldOf,
  type RequestId,
} from "./protocol";
import { registry } from "./registry";

const JSON_CONTENT_TYPE = /^application\/json\s*(?:;|$)/i;

/** Watches a Node client for a `ResponseChannel`: `cancel` runs once it disconnects before the response is complete. */
export function disconnectWatcher(event: H3Event): ((cancel: () => void) => void) | undefined {
  const response = event.node?.res;
  // Workers' stand-in response has `once` too (and finishes before it closes); without it, a stream's own cancel ends it.
  if (typeof response?.once !== "function") return undefined;
  return (cancel) => {
    const ifUnfinished = () => void (response.writableFinished || cancel());
    if (response.destroyed) ifUnfinished();
    else response.once("close", ifUnfinished);
  };
}

/**
 * What a request acts on (the tool or prompt `name`, the resource `uri`) and its definition; undefined when the method has
 * none or names it with a non-string. Resolved once: the `Mcp-Name` check, the state's binding and the methods read it.
 */
export function resolveTarget(method: string, params: Readonly<Record<string, unknown>>): RequestTarget | undefined {
  if (!INPUT_REQUIRED_METHODS.has(method)) return undefined;
  const field = nameFieldOf(method);
  const name = field && params[field];
  if (typeof name !== "string") return undefined;
  if (method === "tools/call") return { field: "name", name, entry: registry.toolsByName.get(name), variables: {} };
  if (method === "prompts/get") return { field: "name", name, entry: registry.promptsByName.get(name), variables: {} };
  const found = registry.findResource(name);
  return { field: "uri", name, entry: found?.entry, variables: found?.variables ?? {} };
}

type EraFields = Omit<
  McpContext,
  "id" | "method" | "params" | "principal" | "caller" | "auth" | "signal" | "event" | "channel"
>;

/** 2026-07-28: `_meta`, mirrored headers, version, target, scopes and `inputResponses`, all checked up front. */
function modernFields(read: HeaderReader, message: JsonRpcRequest, auth: AuthInfo): EraFields {
  const meta = parseRequestMeta(message.params);
  checkVersionHeader(read, meta.protocolVersion);
  requireModernVersion(meta.protocolVersion);
  checkMethodHeaders(read, message);

  const { method, params } = message;
  const target = resolveTarget(method, params);
  if (target?.entry?.kind === "tool" && target.entry.headerParams.length)
    checkParamHeaders(read, target.entry.headerParams, params.arguments);
  if ("inputResponses" in params && !isPlainObject(params.inputResponses)) {
    throw invalidParams("params.inputResponses must be an object mapping input request keys to responses");
  }
  useSignIn()?.authorize(auth, target);
  // The next step, `openRequestState`, opens the state and keeps the answers it allows.
  return { era: "modern", ...meta, target, inputResponses: {} };
}

/**
 * 2025-era requests: no `_meta` envelope and no mirrored headers; what the client can be asked, and the level logs are
 * sent at, are the legacy feature's (its session). Only selected when that feature is there (`selectEra`).
 */
function legacyFields(event: H3Event, message: JsonRpcRequest, version: string, auth: AuthInfo): EraFields {
  const meta = isPlainObject(message.params._meta) ? message.params._meta : {};
  const target = resolveTarget(message.method, message.params);
  useSignIn()?.authorize(auth, target);
  const legacy = useLegacyEra()!;
  return {
    era: "legacy",
    protocolVersion: version,
    clientCapabilities: legacy.askable(event),
    logLevel: legacy.logLevel,
    progressToken: readProgressToken(meta),
    target,
    inputResponses: {},
  };
}

/**
 * The context of one request: a class, so that `signal` (an AbortController made only if a handler asks) costs nothing
 * per request; its fields declared through the interface, so that none compiles to a defineProperty call.
 */
type ContextFields = { -readonly [K in Exclude<keyof McpContext, "signal" | "caller">]: McpContext[K] };
// biome-ignore lint/correctness/noUnusedVariables: merged into the class below, which it declares the fields of
interface RequestContext extends ContextFields {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: deliberate, so that no field compiles to a defineProperty call (see above)
class RequestContext implements McpContext {
  constructor(message: JsonRpcRequest, auth: AuthInfo, fields: EraFields, event: H3Event, channel: ResponseChannel) {
    this.auth = auth;
    this.event = event;
    this.channel = channel;
    this.id = message.id;
    this.method = message.method;
    this.params = message.params;
    this.principal = auth.principal;
    this.era = fields.era;
    this.protocolVersion = fields.protocolVersion;
    this.clientCapabilities = fields.clientCapabilities;
    this.clientInfo = fields.clientInfo;
    this.logLevel = fields.logLevel;
    this.progressToken = fields.progressToken;
    this.target = fields.target;
    this.inputResponses = fields.inputResponses;
    this.state = fields.state;
  }

  get signal(): AbortSignal {
    return this.channel.signal;
  }

  private callerKey: string | undefined;
  /** Worked out when first asked for (a fair share, a rate limit): most requests never need it. */
  get caller(): string {
    this.callerKey ??= callerKey(this.event, this.auth);
    return this.callerKey;
  }
}

function createMcpContext(event: H3Event, message: JsonRpcRequest, auth: AuthInfo): McpContext {
  const read: HeaderReader = (name) => requestHeader(event, name);
  const selection = selectEra(message, read("mcp-protocol-version"));
  const fields =
    selection.era === "modern"
      ? modernFields(read, message, auth)
      : legacyFields(event, message, selection.version, auth);
  const channel = new ResponseChannel(disconnectWatcher(event));
  return new RequestContext(message, auth, fields, event, channel);
}

/** Reads and validates the request into `event.context.mcp`, or ends it with the right error (or 202 for a notification). */
export async function readMcpRequest(event: H3Event): Promise<void> {
  let id: RequestId | undefined;
  try {
    if (!JSON_CONTENT_TYPE.test(requestHeader(event, "content-type") ?? ""))
      throw invalidRequest("Content-Type must be application/json", 415);
    const config = useMcpConfig();
    const message = parseJsonRpcMessage(
      await readBodyText(event, { maxBytes: config.maxBodyBytes, timeoutMs: config.bodyTimeoutMs }),
    );
    if (message.kind !== "request") {
      const refused = await runMessageChecks(event, message);
      if (refused) return sendError(event, undefined, refused.error, refused.headers);
      // The 2025 era's asking takes the answers and cancellations of its sessions; anything else is a notification (202) or refused.
      const received = useLegacyEra()?.receive(event, message);
      if (received) return await received;
      if (message.kind === "notification") return sendNoContent(event, 202);
      throw invalidRequest("Clients must not send JSON-RPC responses to this server: nothing was asked");
    }
    id = message.id;
    event.context.mcpMessage = message;
    const observer = useObserver();
    observer.read(event, message);
    // A 2025-era request's session is opened here, by the legacy feature (404 when it does not open).
    const refusal =
      (await runMessageChecks(event, message)) ??
      (hasModernMeta(message.params) ? undefined : await useLegacyEra()?.openSession(event, message));
    if (refusal) return sendError(event, id, refusal.error, refusal.headers);
    event.context.mcp = observer.within(event, () => createMcpContext(event, message, event.context.mcpAuth!));
  } catch (error) {
    const refused = useSignIn()?.refuse(event, error);
    if (refused) return refused;
    // An unread remainder must not be parsed as the next request on this connection.
    const unread = (error instanceof BodyTooLargeError && !error.drained) || error instanceof BodyTimeoutError;
    const closing = unread ? { connection: "close" } : undefined;
    return sendError(event, id, error, closing);
  }
}
