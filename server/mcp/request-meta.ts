/**
 * A request's headers, its 2026-07-28 `_meta` and its era. The mirrored headers must equal the body (-32020/400, naming
 * the header), so that a proxy routing on headers and this server acting on the body agree.
 */
import { ImplementationSchema } from "@modelcontextprotocol/core";
import type { H3Event } from "h3";
import type { Era } from "./context";
import { headerMismatch, invalidParams, unsupportedProtocolVersion } from "./errors";
import { useLegacyEra } from "./features";
import { isPlainObject, utf8Decode } from "./internal/basics";
import {
  LOG_LEVELS,
  META,
  MODERN_PROTOCOL_VERSION,
  nameFieldOf,
  type Implementation,
  type JsonRpcRequest,
  type LoggingLevel,
  type ProgressToken,
} from "./protocol";

/** One request header (Node's names are already lower case): cheaper than `event.headers`, a new `Headers` per request. */
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

/** HTTP's optional whitespace is ASCII space and tab only: any other space is part of the value (and fails its check). */
export const trimOptionalWhitespace = (value: string): string => value.replace(/^[ \t]+|[ \t]+$/g, "");

/** A header value trimmed, visible ASCII, its `=?base64?…?=` sentinel decoded (strict padding, valid UTF-8); else null. */
export function decodeHeaderValue(raw: string): string | null {
  const value = trimOptionalWhitespace(raw);
  if (!VISIBLE_ASCII.test(value)) return null;
  const sentinel = SENTINEL.exec(value);
  if (!sentinel) return value;
  const encoded = sentinel[1]!;
  if (!STRICT_BASE64.test(encoded)) return null;
  try {
    const binary = atob(encoded);
    return utf8Decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
}

function requireHeader(read: HeaderReader, name: string): string {
  const raw = read(name.toLowerCase());
  if (raw === undefined) throw headerMismatch(`missing required ${name} header`);
  return raw;
}

/** Mcp-Name and Mcp-Param-* may carry the base64 sentinel; decoded before comparison. */
function decodedHeader(name: string, raw: string): string {
  const value = decodeHeaderValue(raw);
  if (value === null) throw headerMismatch(`${name} header contains invalid characters or a malformed base64 value`);
  return value;
}

/** `MCP-Protocol-Version` must be present and equal `_meta`'s version (checked before the version itself). */
export function checkVersionHeader(read: HeaderReader, protocolVersion: string): void {
  const version = trimOptionalWhitespace(requireHeader(read, "MCP-Protocol-Version"));
  if (version !== protocolVersion)
    throw headerMismatch("MCP-Protocol-Version header value does not match the protocol version in _meta");
}

/** `Mcp-Method` (compared literally: values are case-sensitive) and `Mcp-Name` against the body. */
export function checkMethodHeaders(read: HeaderReader, message: JsonRpcRequest): void {
  const method = trimOptionalWhitespace(requireHeader(read, "Mcp-Method"));
  if (method !== message.method) throw headerMismatch("Mcp-Method header value does not match the body's method");
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
  switch (type) {
    case "string":
      return header === body;
    case "boolean":
      return header === String(body) && typeof body === "boolean";
    case "integer":
      // Compared numerically ("42.0" and 42 are the same value), decimal notation only.
      return typeof body === "number" && DECIMAL.test(header) && Number(header) === body;
  }
}

export function checkParamHeaders(read: HeaderReader, params: readonly HeaderParam[], args: unknown): void {
  for (const param of params) {
    const name = `Mcp-Param-${param.header}`;
    const raw = read(name.toLowerCase());
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

export interface RequestMeta {
  readonly protocolVersion: string;
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  readonly clientInfo?: Implementation;
  readonly logLevel?: LoggingLevel;
  readonly progressToken?: ProgressToken;
}

const malformed = (message: string) => invalidParams(message, undefined, 400);

/** True when the params carry the 2026-07-28 per-request metadata (the modern era). */
export function hasModernMeta(params: Readonly<Record<string, unknown>>): boolean {
  return isPlainObject(params._meta) && META.protocolVersion in params._meta;
}

export function readProgressToken(meta: Record<string, unknown>): ProgressToken | undefined {
  const token = meta[META.progressToken];
  if (token === undefined) return undefined;
  if (typeof token === "string" || (typeof token === "number" && Number.isInteger(token))) return token;
  throw malformed("_meta.progressToken must be a string or an integer");
}

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
  if (!isPlainObject(clientCapabilities))
    throw malformed(`Missing or invalid _meta["${META.clientCapabilities}"]: send {} if the client declares nothing`);
  const rawInfo = meta[META.clientInfo];
  let clientInfo: Implementation | undefined;
  if (rawInfo !== undefined) {
    const parsed = ImplementationSchema.safeParse(rawInfo);
    if (!parsed.success) throw malformed(`Invalid _meta["${META.clientInfo}"]: expected { name, version }`);
    clientInfo = parsed.data;
  }
  const logLevel = meta[META.logLevel];
  if (logLevel !== undefined && !LOG_LEVELS.includes(logLevel as LoggingLevel)) {
    throw malformed(`Invalid _meta["${META.logLevel}"]: expected one of ${LOG_LEVELS.join(", ")}`);
  }
  return {
    protocolVersion,
    clientCapabilities,
    clientInfo,
    logLevel: logLevel as LoggingLevel | undefined,
    progressToken: readProgressToken(meta),
  };
}

// A request with the 2026-07-28 `_meta` is modern; any other is legacy when a feature serves that era (`serveLegacyEra`),
// else it is read as 2026-07-28 (and `initialize` is refused with -32022).
const MODERN_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION];

/** Every version a client may use, newest first (as listed in discover and in -32022). */
export function supportedProtocolVersions(): readonly string[] {
  return [...MODERN_VERSIONS, ...(useLegacyEra()?.versions ?? [])];
}

export type EraSelection = { era: "modern" } | { era: Extract<Era, "legacy">; version: string };

/** A request with the 2026-07-28 envelope must name a version of that era. Throws -32022 (400) otherwise. */
export function requireModernVersion(requested: string): void {
  if (MODERN_VERSIONS.includes(requested)) return;
  const message = useLegacyEra()?.versions.includes(requested)
    ? `Protocol version ${requested} is served through initialize, without the per-request _meta envelope`
    : "Unsupported protocol version";
  throw unsupportedProtocolVersion(requested, supportedProtocolVersions(), message);
}

/** Which era serves this request. Throws -32022 (400) for a version nobody here speaks. */
export function selectEra(message: JsonRpcRequest, versionHeader: string | undefined): EraSelection {
  if (hasModernMeta(message.params)) return { era: "modern" };
  const legacy = useLegacyEra();
  if (legacy) return legacy.selectEra(message, versionHeader);
  // A 2026-only server names the versions it speaks: legacy clients have no other way to find out.
  if (message.method === "initialize") {
    const requested = String(message.params.protocolVersion ?? "(none)");
    throw unsupportedProtocolVersion(
      requested,
      MODERN_VERSIONS,
      `Unsupported protocol version ${requested}: this server speaks MCP ${MODERN_VERSIONS.join(", ")} only`,
    );
  }
  return { era: "modern" };
}
