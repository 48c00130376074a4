/**
 * The per-request `_meta` of a 2026-07-28 request: protocol version, client
 * capabilities and identity, log level, progress token.
 *
 * A request missing a required field is malformed: -32602 with HTTP 400.
 */
import { ImplementationSchema } from "@modelcontextprotocol/core";
import { invalidParams } from "./errors";
import { isPlainObject } from "./internal/object";
import { LOG_LEVELS, META, type Implementation, type LoggingLevel, type ProgressToken } from "./protocol";

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
