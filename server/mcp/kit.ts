/**
 * The kit: everything an optional feature (a folder of `server/features/`), a store (a folder of `server/storage/`), the
 * helpers definitions call (`utils/`) and the app (`server/tools/`, `server/examples/`, `routes/`) may use of the core, and
 * the only core module they import (`tests/unit/layering.test.ts` holds them to it). A feature plugs in
 * from its Nitro plugin, at start-up, by adding listeners to the core's hooks; it adds options to definitions and fields to
 * its own context by declaration merging (`DefinitionOptions`, `ToolDefinitionOptions`, h3's `H3EventContext`). Every entry
 * documents itself, with an example; server/mcp/README.md ("Extending the core") walks through a whole feature. The types of
 * the hooks, the definitions, the wire and the store are the kit's whole (`export type *`): a type added there is in it.
 */
import { hooks } from "./hooks";

// ——— hooks: each takes any number of listeners, called in the order added (plugins run in their folders' name order) ———

/**
 * Watches every HTTP request: `start` (arrived), `read` (its JSON-RPC request parsed), `end` (its status, and how the MCP request ended).
 * Synchronous: an observer that throws is logged and skipped, the others and the request go on; work it starts (a write)
 * catches its own errors, which nobody awaits. A request refused before its body was read (401, 413, 415, a rate limit's
 * 429 from the headers) reaches `end` with no `event.context.mcpMessage`: only its `Mcp-Method` header, unverified, says
 * what it was.
 * @example
 * observeRequests({
 *   end: (event, ended) =>
 *     void audit.write(event.context.mcpAuth?.principal, ended.status).catch((error) => logError("audit", error)),
 * });
 */
export const observeRequests = hooks.observe;
/**
 * Runs each step of a request (reading it, opening its state, dispatching it) inside `wrapper`, e.g. in its trace context.
 * @example wrapRequestSteps((event, work) => context.with(event.context.trace, work));
 */
export const wrapRequestSteps = hooks.wrapScope;
/**
 * Runs each named unit of work (opening or sealing a requestState, every storage operation) inside `wrapper`, e.g. as a span.
 * @example wrapUnitsOfWork((name, attributes, work) => tracer.startActiveSpan(name, { attributes }, () => work()));
 */
export const wrapUnitsOfWork = hooks.wrapSteps;
/**
 * Identifies the caller of `POST /mcp`: the first authenticator to return an `AuthInfo` wins; none: `anonymous`. Throw an
 * `HttpRefusal` (or an `McpError`) to refuse; `info` tells discovery documents (the server card) how to sign in, and with
 * `info.required`, its `challenge()` is the refusal of a caller nobody identified. Authenticators run in plugin order (the
 * features' folders by name, then your scan dirs): one may refuse a credential it does not know (a bearer token, say)
 * rather than pass it on, so yours must run before it (or use another header). Nothing bounds an authenticator's time:
 * one that asks a server bounds its own wait. Name your principals as `AuthInfo` says.
 * @example
 * addAuthenticator(async (event) => {
 *   const key = await apiKeys.lookup(requestHeader(event, "x-api-key")); // bounded by its own timeout
 *   return key ? { principal: `api-key:${key.name}`, via: "api-key", scopes: key.scopes } : undefined;
 * });
 */
export const addAuthenticator = hooks.authenticate;
/**
 * A check before the body is read: return an `McpError` (e.g. `limitExceeded(…)`) to refuse, undefined to let it through.
 * @example addRequestCheck((event) => (blocked.has(clientAddress(event)) ? invalidRequest("Blocked", 403) : undefined));
 */
export const addRequestCheck = hooks.checkRequests;
/**
 * A check on every message read (requests, and what a client POSTs besides them), before any state opens.
 * @example addMessageCheck((event, message) => (message.kind === "request" && message.method === "x/y" ? invalidRequest("No") : undefined));
 */
export const addMessageCheck = hooks.checkMessages;
/**
 * Decides, before any requestState opens, whether the caller may act on `mcp.target`: throw to refuse. Synchronous, from
 * what the request carries: one that returns a promise (an `async` function) refuses every request, with a log line.
 * @example addAuthorizer((mcp) => { if (mcp.target?.entry?.options.adminOnly && !isAdmin(mcp.auth)) throw invalidRequest("Admins only", 403); });
 */
export const addAuthorizer = hooks.authorize;
/**
 * A layer around dispatch (an onion, as Hono's `(c, next)`): answer the request yourself, or `await next(mcp)` and return
 * (or change) what it answers. The first added is the outermost; `scope` limits it to some methods or definitions (the
 * others pass by without running it).
 * @example wrapDispatch(async (mcp, next) => { const started = Date.now(); try { return await next(mcp); } finally { timings.add(mcp.method, Date.now() - started); } });
 */
export const wrapDispatch = hooks.use;
/**
 * Adds 2026-07-28 methods (`adapted: true`: also for requests an adapter reads); two features adding one method stop the start-up.
 * @example addMethods({ "notes/count": async () => ({ count: await countNotes() }) });
 */
export const addMethods = hooks.addMethods;
/**
 * An extension in the capabilities `server/discover` lists (`adapted: true`: an adapter's handshake too).
 * @example declareExtension("com.example/audit", {});
 */
export const declareExtension = hooks.declareExtension;
/**
 * Capabilities beyond the registry's (merged one level deep into what `server/discover` lists).
 * @example declareCapabilities({ resources: { subscribe: true } });
 */
export const declareCapabilities = hooks.declareCapabilities;
/**
 * Something `subscriptions/listen` carries: it reads `params.notifications`, and its stream sends until the deadline.
 * @example addListenSource({ async open(mcp, notifications) { return { honoured: {}, watch: async () => {} }; } });
 */
export const addListenSource = hooks.addListenSource;
/**
 * Answers `GET /mcp` when it wants to (return undefined, synchronously, to leave it to the next; none: 405).
 * @example addGetResponder((event) => (prefersHtml(event) ? sendPage(event) : undefined));
 */
export const addGetResponder = hooks.addGetResponder;
/**
 * Serves another protocol revision on the same endpoint: it reads the requests without the 2026-07-28 envelope; shape what
 * its handlers answer with `wrapDispatch`.
 * @example addAdapter({ name: "older", versions: ["2025-11-25"], read: async (event, message) => (isMine(event) ? meta(event) : undefined) });
 */
export const addAdapter = hooks.addAdapter;
/**
 * Serves resources besides the definitions (e.g. files a feature ships): found by URI for `resources/read`, those in `listed`
 * shown by `resources/list`. Declare `{ resources: {} }` with `declareCapabilities` when the registry may have none.
 * @example serveResources({ find: (uri) => { const entry = files.get(uri); return entry && { entry, variables: {} }; }, listed: [readme] });
 */
export const serveResources = hooks.serveResources;
/**
 * Adds `_meta` fields to a tool's, prompt's or resource's descriptor where the lists show it, from the options its feature
 * declared (return undefined to add none).
 * @example describeEntries((entry) => (entry.options.owner ? { "com.example/owner": entry.options.owner } : undefined));
 */
export const describeEntries = hooks.describeEntries;

export type * from "./hooks";
export { authenticate, authenticationInfo, mayAct, runRequestChecks } from "./hooks";

// ——— the request, and answering it ———

export type { AuthInfo, McpContext, OpenedState, RequestMeta, RequestTarget } from "./context";
export { contextWith } from "./context";
export { resolveTarget } from "./read-request";
export { callerKey, clientAddress, requestOrigin } from "./http/caller";
export { decodeHeaderValue, hasModernMeta, readProgressToken, requestHeader } from "./protocol";
export { guardHost, guardOriginAndHost } from "./http/guard";
export { sendError, toMcpError, type RequestOutcome } from "./http/error-reply";
export { ResponseChannel, SSE_HEADERS, disconnectWatcher } from "./http/channel";
export {
  createInputRequiredOutcome,
  finalResult,
  isFinalResult,
  isInputRequiredOutcome,
  isToolErrorResult,
  toolErrorResult,
  type InputRequiredOutcome,
  type ToolErrorResult,
} from "./outcome";
export { listResult, serverInfo, shapeResult } from "./outcome";
export { paginate } from "./pagination";
export { findHeaderParams } from "./http/header-params";
export { compileUriTemplate } from "./uri-template";
export { describeIssues, objectSchema, type InputOf, type ObjectInput } from "./internal/zod";
export { clientCanAnswer } from "./capabilities";
export { claimOnce, openToken, retryWith, sealToken } from "./state/request-state";
export type { OpenResult, RequestBinding } from "./state/codec";
export { streamDeadline, takeShare } from "./shares";

// ——— definitions, the registry ———

export { DEFINITION, entryBase } from "./entries";
export type * from "./entries";
export {
  MAX_SUBSCRIBED_URIS,
  MAX_URI_LENGTH,
  registry,
  servedResource,
  serverCapabilities,
  supportedProtocolVersions,
} from "./registry";
export type { MethodHandler, MethodResult } from "./methods/types";

// ——— errors, settings, the log ———

export {
  ErrorCode,
  HttpRefusal,
  McpError,
  MissingCapabilitiesError,
  ResourceNotFoundError,
  StorageUnavailableError,
  internalError,
  invalidParams,
  invalidRequest,
  limitExceeded,
  unsupportedProtocolVersion,
} from "./errors";
export { useMcpConfig, useSettings, type McpConfig, type ParsedSettings } from "./config";
export {
  boolean,
  bounded as boundedInteger,
  integer,
  optionalText,
  parseList,
  setting,
  text,
  type SettingTable,
} from "./settings";
export { logError, logInfo, logInfoMembers, logValue, logWarning, logWithReference } from "./log";

// ——— the wire ———

export {
  LOG_LEVELS,
  MAX_JSON_DEPTH,
  META,
  MODERN_PROTOCOL_VERSION,
  errorBody,
  declareNameFields,
  nameFieldOf,
  nestsDeeperThan,
  notificationMessage,
} from "./protocol";
export type * from "./protocol";

// ——— the shared store ———

export {
  EVERY_PRINCIPAL,
  KEY_SEGMENT,
  defineStore,
  MAX_BUS_MESSAGE_BYTES,
  decodeEnvelope,
  digestKeySegment,
  encodeEnvelope,
  publishResourceChange,
  resourceChannel,
  setMessageBus,
  useAtomicStore,
  useMessageBus,
  useStore,
} from "./store";
export type * from "./store";
export { bounded, guarded } from "./store";

// ——— encodings, time, text ———

export {
  base64Encode,
  base64UrlDecode,
  base64UrlEncode,
  isPlainObject,
  nowSeconds,
  presentFields,
  utf8Decode,
  utf8Encode,
  wait,
} from "./internal/basics";
export { randomBytes } from "./internal/random";
export { clip, escapeHtml } from "./internal/text";
