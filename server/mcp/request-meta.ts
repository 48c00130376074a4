/**
 * The per-request `_meta` of a 2026-07-28 request: protocol version, client
 * capabilities and identity, log level, progress token.
 *
 * A request missing a required field is malformed: -32602 with HTTP 400.
 */
import { ImplementationSchema } from "@modelcontextprotocol/core";
import type { Era } from "./context";
import { invalidParams, unsupportedProtocolVersion } from "./errors";
import { useLegacyEra } from "./features";
import { type JsonRpcRequest, LOG_LEVELS, META, MODERN_PROTOCOL_VERSION, type Implementation, type LoggingLevel, type ProgressToken } from "./protocol";
import { isPlainObject } from "./internal/basics";

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
  if (typeof protocolVersion !== "string" || protocolVersion === "") {
    throw malformed(`Missing or invalid _meta["${META.protocolVersion}"]`);
  }
  const clientCapabilities = meta[META.clientCapabilities];
  if (!isPlainObject(clientCapabilities)) {
    throw malformed(`Missing or invalid _meta["${META.clientCapabilities}"]: send {} if the client declares nothing`);
  }
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

/*
 * Protocol versions and eras.
 *
 * A request carrying the 2026-07-28 `_meta` is modern. Any other request belongs to the legacy era
 * when a feature serves it (`serveLegacyEra` in features.ts), which then picks its version; without
 * it, `initialize` is refused with -32022 and every other request is read as a 2026-07-28 one.
 */
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
    throw unsupportedProtocolVersion(requested, MODERN_VERSIONS, `Unsupported protocol version ${requested}: this server speaks MCP ${MODERN_VERSIONS.join(", ")} only`);
  }
  return { era: "modern" };
}
