/**
 * The wire: MCP's types (type imports, and the one schema `_meta` needs: the SDK's other values live in bundles unwanted at
 * the edge), the JSON-RPC envelope, a 2026-07-28 request's `_meta`, and a request's headers, among them those a 2026-07-28 request mirrors from its body, which must equal it (-32020/400,
 * naming the header), so that a proxy routing on headers and this server acting on the body agree.
 */
import { ImplementationSchema } from "@modelcontextprotocol/core";
import type { ElicitRequestURLParams, LoggingLevel, ProgressToken, RequestId } from "@modelcontextprotocol/server";
import type { RequestMeta } from "./context";
import type { H3Event } from "h3";
import { ErrorCode, McpError, headerMismatch, invalidParams, invalidRequest } from "./errors";
import { isPlainObject, utf8Decode } from "./internal/basics";

export type {
  CallToolResult,
  ClientCapabilities,
  ContentBlock,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  GetPromptResult,
  Implementation,
  InputRequest,
  ListRootsResult,
  LoggingLevel,
  ProgressToken,
  Prompt,
  PromptArgument,
  PromptMessage,
  ReadResourceResult,
  RequestId,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  ServerCapabilities,
  Tool,
  ToolAnnotations,
} from "@modelcontextprotocol/server";

/** URL-mode elicitation as 2026-07-28 defines it: the SDK's (2.4) still requires the removed `elicitationId`. */
export type UrlElicitationParams = Omit<ElicitRequestURLParams, "elicitationId">;

/**
 * The protocol revision this server speaks itself, with the per-request `_meta` envelope (adapters serve older ones).
 * @example const headers = { "mcp-protocol-version": MODERN_PROTOCOL_VERSION, "mcp-method": "server/discover" };
 */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/**
 * The `_meta` keys of the 2026-07-28 envelope (a request's version, client and log level; a result's `serverInfo`), and
 * where a request's progress token sits.
 * @example
 * const params = { _meta: { [META.protocolVersion]: MODERN_PROTOCOL_VERSION, [META.clientCapabilities]: {} } };
 */
export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
  progressToken: "progressToken",
} as const;

/**
 * RFC 5424 severities, lowest first: a message is sent when its index is >= the requested level's.
 * @example if (!LOG_LEVELS.includes(mcp.params.level as LoggingLevel)) throw invalidParams("Unknown log level");
 */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/** The only requests that may answer `resultType: "input_required"`. */
export const INPUT_REQUIRED_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);

/** The body field each method mirrors into `Mcp-Name` (SEP-2243); a feature adds its own methods' (`declareNameFields`). */
const nameFields = new Map<string, string>([
  ["tools/call", "name"],
  ["prompts/get", "name"],
  ["resources/read", "uri"],
]);

/**
 * Declares the body field methods a feature adds name their target by, which `Mcp-Name` mirrors and which must equal it.
 * @example declareNameFields({ "notes/archive": "noteId" }); // Mcp-Name: <params.noteId>
 */
export function declareNameFields(fields: Readonly<Record<string, string>>): void {
  for (const [method, field] of Object.entries(fields)) nameFields.set(method, field);
}

/**
 * The body field a method names its target by, which the `Mcp-Name` header mirrors (`name`, `uri`, or a feature's);
 * undefined for a method without one.
 * @example const field = nameFieldOf(message.method); // "uri" for resources/read
 */
export const nameFieldOf = (method: string): string | undefined => nameFields.get(method);

export interface CacheHints {
  ttlMs: number;
  cacheScope: "public" | "private";
}

export interface JsonRpcRequest extends Omit<JsonRpcNotification, "kind"> {
  readonly kind: "request";
  readonly id: RequestId;
}

export interface JsonRpcNotification {
  readonly kind: "notification";
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** A client's answer to a request the server sent it: `result` or `error`, as sent (untrusted). */
export interface JsonRpcResponse {
  readonly kind: "response";
  readonly id: RequestId;
  readonly result?: unknown;
  readonly error?: unknown;
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export interface JsonRpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * Deeper than any MCP message needs; far below what would exhaust the stack of the later recursive walks (binding,
 * schemas).
 * @example
 * if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new Error(`the answer nests deeper than ${MAX_JSON_DEPTH} levels`);
 */
export const MAX_JSON_DEPTH = 64;

function isEscaped(text: string, quote: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * Whether valid JSON `text` nests deeper than `limit`: no recursion or allocation, whatever its size; text with few brackets
 * is cleared by counting them, the rest scanned once.
 * @example
 * if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new Error("the answer nests too deep"); // before a recursive walk
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  // Each level opens a bracket: text with no more than `limit` of them cannot nest deeper, found at native speed (indexOf).
  let brackets = 0;
  for (let at = text.indexOf("{"); at !== -1 && brackets <= limit; at = text.indexOf("{", at + 1)) brackets++;
  for (let at = text.indexOf("["); at !== -1 && brackets <= limit; at = text.indexOf("[", at + 1)) brackets++;
  if (brackets <= limit) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      // A string: jump to its closing quote, the first not escaped by an odd run of backslashes (indexOf: a long
      // requestState is skipped at native speed, not character by character).
      do {
        i = text.indexOf('"', i + 1);
        if (i === -1) return false;
      } while (isEscaped(text, i));
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}

/**
 * What JSON-RPC ids and MCP progress tokens may be: a string or an integer. Only one JSON numbers keep exactly: a larger one
 * (beyond 2^53) is already another number once parsed, and an answer could not echo it.
 */
const isStringOrInteger = (value: unknown): value is string | number =>
  typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value));

/** Parses the raw body. Throws `McpError` (-32700 / -32600); the error carries the id when it was readable. */
export function parseJsonRpcMessage(text: string): JsonRpcMessage {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    throw new McpError(ErrorCode.ParseError, "Parse error: the body is not valid JSON", undefined, 400);
  }
  if (Array.isArray(message))
    throw invalidRequest("Batch requests are not supported: send one JSON-RPC message per POST");
  if (!isPlainObject(message)) throw invalidRequest("The body must be a JSON-RPC request object");
  // Read before the message is fully validated, so the error can still echo it.
  const id = isStringOrInteger(message.id) ? message.id : undefined;
  const fail = (text: string) => Object.assign(invalidRequest(text), { requestId: id });
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw fail(`The message is nested deeper than ${MAX_JSON_DEPTH} levels`);

  if (message.jsonrpc !== "2.0") throw fail('"jsonrpc" must be "2.0"');
  if (!("method" in message)) {
    // A response: only the 2025 era's asking takes one (`LegacyEra.receive` in features.ts; -32600 otherwise).
    const answered = "result" in message !== "error" in message;
    if (id === undefined || !answered)
      throw fail("Expected a request, a notification, or a response with an id and either result or error");
    return { kind: "response", id, ...("result" in message ? { result: message.result } : { error: message.error }) };
  }
  if (typeof message.method !== "string" || message.method === "") throw fail('"method" must be a non-empty string');
  if (message.params !== undefined && !isPlainObject(message.params)) throw fail('"params" must be an object');
  const params = (message.params as Record<string, unknown> | undefined) ?? {};

  if (!("id" in message)) return { kind: "notification", method: message.method, params };
  if (id === undefined) throw fail('"id" must be a string or an integer from -(2^53 - 1) to 2^53 - 1 (and not null)');
  return { kind: "request", id, method: message.method, params };
}

export function resultMessage(id: RequestId, result: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: "2.0", id, result });
}

export function errorMessage(id: RequestId | undefined, error: JsonRpcErrorBody): string {
  return JSON.stringify(id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error });
}

/**
 * A JSON-RPC notification, as the text a response channel sends.
 * @example mcp.channel.send(notificationMessage("notifications/resources/updated", { _meta: tag, uri }));
 */
export function notificationMessage(method: string, params: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: "2.0", method, params });
}

/**
 * The JSON-RPC `error` member for an `McpError`: its code and message, and its `data` when it has some.
 * @example return endedTask(record, { status: "failed", statusMessage: error.message, error: errorBody(error) });
 */
export const errorBody = ({ code, message, data }: McpError): JsonRpcErrorBody =>
  data === undefined ? { code, message } : { code, message, data };

// ——— headers ———

/**
 * One request header (Node's names are already lower case): cheaper than `event.headers`, a new `Headers` per request.
 * @example const authorization = requestHeader(event, "authorization"); // several values: joined with ", "
 */
export function requestHeader(event: H3Event, lowerCaseName: string): string | undefined {
  const value = event.node.req.headers[lowerCaseName];
  return Array.isArray(value) ? value.join(", ") : value;
}

export type HeaderReader = (lowerCaseName: string) => string | undefined;

/** A tool parameter mirrored into `Mcp-Param-{header}` (from `x-mcp-header` in its input schema). */
export interface HeaderParam {
  /** The name part as declared, e.g. `Region` for `Mcp-Param-Region`. */
  readonly header: string;
  /** Chain of `properties` keys from the schema root to the parameter. */
  readonly path: readonly string[];
  readonly type: "string" | "integer" | "boolean";
}

const VISIBLE_ASCII = /^[\x20-\x7e\t]*$/;
const SENTINEL = /^=\?base64\?(.*)\?=$/;
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

const isSpaceOrTab = (code: number) => code === 0x20 || code === 0x09;
/** HTTP's optional whitespace is ASCII space and tab only: any other space is part of the value (and fails its check). */
export const trimOptionalWhitespace = (value: string): string =>
  isSpaceOrTab(value.charCodeAt(0)) || isSpaceOrTab(value.charCodeAt(value.length - 1))
    ? value.replace(/^[ \t]+|[ \t]+$/g, "")
    : value;

/**
 * A header value trimmed, visible ASCII, its `=?base64?…?=` sentinel decoded (strict padding, valid UTF-8); else null.
 * @example decodeHeaderValue("=?base64?bm90ZXM=?="); // "notes"
 */
export function decodeHeaderValue(raw: string): string | null {
  const value = trimOptionalWhitespace(raw);
  if (!VISIBLE_ASCII.test(value)) return null;
  const sentinel = SENTINEL.exec(value);
  if (!sentinel) return value;
  const encoded = sentinel[1]!;
  if (!STRICT_BASE64.test(encoded)) return null;
  try {
    return utf8Decode(Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
}

const lowerCaseNames = new Map<string, string>();
/**
 * A header's name as Node keys it, in lower case: the same string for every request, which V8 has already looked up in its
 * string table, not a new one to look up each time. Names come from the code and from definitions only: it never grows with
 * what clients send.
 */
const lowerCase = (name: string): string =>
  lowerCaseNames.get(name) ?? lowerCaseNames.set(name, name.toLowerCase()).get(name)!;

/** A header the request must carry (-32020 without it), its optional whitespace trimmed. */
function requireHeader(read: HeaderReader, name: string): string {
  const raw = read(lowerCase(name));
  if (raw === undefined) throw headerMismatch(`missing required ${name} header`);
  return trimOptionalWhitespace(raw);
}

/** Mcp-Name and Mcp-Param-* may carry the base64 sentinel; decoded before comparison. */
function decodedHeader(name: string, raw: string): string {
  const value = decodeHeaderValue(raw);
  if (value === null) throw headerMismatch(`${name} header contains invalid characters or a malformed base64 value`);
  return value;
}

/** `MCP-Protocol-Version` must be present and equal `_meta`'s version (checked before the version itself). */
export function checkVersionHeader(read: HeaderReader, protocolVersion: string): void {
  if (requireHeader(read, "MCP-Protocol-Version") !== protocolVersion)
    throw headerMismatch("MCP-Protocol-Version header value does not match the protocol version in _meta");
}

/** `Mcp-Method` (compared literally: values are case-sensitive) and `Mcp-Name` against the body. */
export function checkMethodHeaders(read: HeaderReader, message: JsonRpcRequest): void {
  if (requireHeader(read, "Mcp-Method") !== message.method)
    throw headerMismatch("Mcp-Method header value does not match the body's method");
  const field = nameFieldOf(message.method);
  if (!field) return;
  const header = decodedHeader("Mcp-Name", requireHeader(read, "Mcp-Name"));
  const value = message.params[field];
  // A missing or non-string body value is reported by the method itself (-32602).
  if (typeof value === "string" && header !== value)
    throw headerMismatch(`Mcp-Name header value does not match the body's ${field}`);
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) {
    if (!isPlainObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

function matches(header: string, body: unknown, type: HeaderParam["type"]): boolean {
  // Compared numerically ("42.0" and 42 are the same value), decimal notation only.
  if (type === "integer") return typeof body === "number" && DECIMAL.test(header) && Number(header) === body;
  // A string or a boolean: the header spells the body's value, of the declared type.
  return typeof body === type && header === String(body);
}

export function checkParamHeaders(read: HeaderReader, params: readonly HeaderParam[], args: unknown): void {
  for (const param of params) {
    const name = `Mcp-Param-${param.header}`;
    const raw = read(lowerCase(name));
    const body = valueAt(args, param.path);
    if (raw === undefined) {
      if (body === undefined || body === null) continue;
      throw headerMismatch(`missing ${name} header for parameter '${param.path.join(".")}'`);
    }
    if (!matches(decodedHeader(name, raw), body, param.type)) {
      throw headerMismatch(`${name} header value does not match parameter '${param.path.join(".")}' in the body`);
    }
  }
}

// ——— the 2026-07-28 envelope: `_meta` ———

const malformed = (message: string) => invalidParams(message, undefined, 400);

/**
 * True when the params carry the 2026-07-28 per-request metadata.
 * @example hasModernMeta({ _meta: { [META.protocolVersion]: MODERN_PROTOCOL_VERSION } }); // true
 */
export function hasModernMeta(params: Readonly<Record<string, unknown>>): boolean {
  return isPlainObject(params._meta) && META.protocolVersion in params._meta;
}

/**
 * `_meta.progressToken`: a string or an integer (-32602, 400, otherwise).
 * @example const progressToken = readProgressToken(isPlainObject(message.params._meta) ? message.params._meta : {});
 */
export function readProgressToken(meta: Readonly<Record<string, unknown>>): ProgressToken | undefined {
  const token = meta[META.progressToken];
  if (token === undefined || isStringOrInteger(token)) return token;
  throw malformed("_meta.progressToken must be a string or an integer");
}

/** The 2026-07-28 `_meta` of a request: its version, its client's capabilities and identity, its log level and progress token. */
export function parseRequestMeta(params: Readonly<Record<string, unknown>>): RequestMeta {
  const meta = params._meta;
  if (!isPlainObject(meta)) {
    throw malformed(
      `Missing params._meta: every 2026-07-28 request carries "${META.protocolVersion}" and "${META.clientCapabilities}"`,
    );
  }
  const protocolVersion = meta[META.protocolVersion];
  if (typeof protocolVersion !== "string" || protocolVersion === "")
    throw malformed(`Missing or invalid _meta["${META.protocolVersion}"]`);
  const clientCapabilities = meta[META.clientCapabilities];
  if (!isPlainObject(clientCapabilities)) {
    throw malformed(`Missing or invalid _meta["${META.clientCapabilities}"]: send {} if the client declares nothing`);
  }
  const rawInfo = meta[META.clientInfo];
  const info = rawInfo === undefined ? undefined : ImplementationSchema.safeParse(rawInfo);
  if (info?.success === false) throw malformed(`Invalid _meta["${META.clientInfo}"]: expected { name, version }`);
  const logLevel = meta[META.logLevel];
  if (logLevel !== undefined && !LOG_LEVELS.includes(logLevel as LoggingLevel)) {
    throw malformed(`Invalid _meta["${META.logLevel}"]: expected one of ${LOG_LEVELS.join(", ")}`);
  }
  return {
    protocolVersion,
    clientCapabilities,
    clientInfo: info?.data,
    logLevel: logLevel as LoggingLevel | undefined,
    progressToken: readProgressToken(meta),
  };
}
