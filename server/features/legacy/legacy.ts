/**
 * The legacy era: clients of 2025-11-25, 2025-06-18 and 2025-03-26, served statelessly.
 *
 * - `initialize` negotiates a version and answers with capabilities and a sealed `Mcp-Session-Id`
 *   (`session.ts`): the client keeps it, and every instance can open it.
 * - `ping` and `logging/setLevel` answer `{}`. The level is not remembered, so legacy requests get
 *   log messages at LEGACY_LOG_LEVEL, which those revisions allow ("the server MAY decide which
 *   messages to send") before any level is known.
 * - Results lose the 2026-only fields (`resultType`, caching hints, `_meta` serverInfo);
 *   errors use the negotiated revision's codes (resource not found is -32002) and HTTP 200.
 * - A question is asked on the POST's stream when the session says the client can answer it
 *   (`ask.ts`, the answers arrive through `answers.ts`). Otherwise a URL-mode question on a
 *   2025-11-25 request becomes that revision's -32042, and anything else ends the call with a
 *   clear message (an `isError` result for tools).
 */
import { setResponseHeader } from "h3";
import { useMcpConfig } from "../../mcp/config";
import type { McpContext } from "../../mcp/context";
import { McpError, ResourceNotFoundError, invalidParams, unsupportedProtocolVersion } from "../../mcp/errors";
import { isPlainObject } from "../../mcp/internal/basics";
import { type JsonRpcRequest, LOG_LEVELS, MODERN_PROTOCOL_VERSION, type LoggingLevel } from "../../mcp/protocol";
import type { MethodResult } from "../../mcp/methods/types";
import type { Retry } from "../../mcp/features";
import type { InputRequiredOutcome } from "../../mcp/outcome";
import { serverCapabilities } from "../../mcp/registry";
import { supportedProtocolVersions, type EraSelection } from "../../mcp/request-meta";
import { askLegacyClient, canAsk, ended, isUrlElicitation } from "./ask";
import { mintSession, presentedSession } from "./session";

/** 2025-11-25 only: the way to ask for a URL-mode elicitation. */
const URL_ELICITATION_REQUIRED = -32042;
/** 2025-11-25 and earlier: resource not found. */
const LEGACY_RESOURCE_NOT_FOUND = -32002;

export const LEGACY_LOG_LEVEL: LoggingLevel = "info";

/** Newest first: `initialize` falls back to the first one when the client asks for a version we do not know. */
export const LEGACY_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26"];
/** What a legacy request without `MCP-Protocol-Version`, and without a session to tell, is taken to be. */
const HEADERLESS_LEGACY_VERSION = "2025-03-26";

/** The version `initialize` answers with: the requested one if we speak it, else our latest legacy one. */
function negotiateLegacyVersion(requested: unknown): string {
  return typeof requested === "string" && LEGACY_VERSIONS.includes(requested) ? requested : LEGACY_VERSIONS[0]!;
}

/**
 * The era of a request without the 2026 envelope: `initialize` opens the legacy era; later legacy requests are
 * recognised by their `MCP-Protocol-Version` header. Without the header, a request presenting a session is in the
 * version that session negotiated (2025-06-18 lets the server assume it; some clients, Gemini CLI among them, send no
 * header after `initialize`), and one without a session is taken as 2025-03-26, as those revisions allow. An unknown
 * version header gets -32022 (400) with the supported list.
 */
export function selectLegacyEra(message: JsonRpcRequest, versionHeader: string | undefined): EraSelection {
  if (message.method === "initialize")
    return { era: "legacy", version: negotiateLegacyVersion(message.params.protocolVersion) };
  const header = versionHeader?.trim();
  if (header === undefined)
    return { era: "legacy", version: presentedSession(message)?.version ?? HEADERLESS_LEGACY_VERSION };
  if (LEGACY_VERSIONS.includes(header)) return { era: "legacy", version: header };
  if (header === MODERN_PROTOCOL_VERSION) return { era: "modern" };
  throw unsupportedProtocolVersion(header, supportedProtocolVersions());
}

export async function initialize(mcp: McpContext): Promise<MethodResult> {
  const { protocolVersion, capabilities, clientInfo } = mcp.params;
  if (typeof protocolVersion !== "string" || !isPlainObject(capabilities) || !isPlainObject(clientInfo)) {
    throw invalidParams("initialize requires protocolVersion, capabilities and clientInfo");
  }
  // The session the client will present: what it declared, sealed for it (none when this server cannot seal).
  const session = await mintSession(mcp.principal, mcp.protocolVersion, capabilities);
  if (session) setResponseHeader(mcp.event, "mcp-session-id", session);
  const config = useMcpConfig();
  return {
    protocolVersion: mcp.protocolVersion,
    capabilities: serverCapabilities("legacy"),
    serverInfo: config.serverInfo,
    ...(config.instructions ? { instructions: config.instructions } : {}),
  };
}

export const ping = (): MethodResult => ({});

export function setLogLevel(mcp: McpContext): MethodResult {
  if (!LOG_LEVELS.includes(mcp.params.level as LoggingLevel)) {
    throw invalidParams(`level must be one of ${LOG_LEVELS.join(", ")}`);
  }
  return {};
}

/** A result as the 2025 revisions shape it. */
export function legacyResult(result: Record<string, unknown>): Record<string, unknown> {
  const { ttlMs: _ttl, cacheScope: _scope, ...rest } = result;
  return rest;
}

/**
 * What a handler's "ask first" becomes: asked on the POST's stream when the client's session declared what the
 * questions need (and a bus carries the answers: `ask.ts`), else refused as a client that cannot be asked.
 */
export function legacyInputRequired(
  mcp: McpContext,
  outcome: InputRequiredOutcome,
  retry: Retry,
): Promise<Record<string, unknown>> | Record<string, unknown> {
  const session = mcp.event.context.legacySession;
  if (!canAsk(session, outcome)) return cannotAsk(mcp, outcome);
  return askLegacyClient(mcp, session, outcome, retry, { result: legacyResult, cannotAsk });
}

/** What a handler's "ask first" becomes for a client that cannot be asked. */
function cannotAsk(mcp: McpContext, outcome: InputRequiredOutcome): Record<string, unknown> {
  const requests = Object.values(outcome.inputRequests);
  if (mcp.protocolVersion === "2025-11-25" && requests.length > 0 && requests.every(isUrlElicitation)) {
    const elicitations = requests.map((request) => {
      const { message, url } = request.params as { message: string; url: string };
      return { mode: "url", elicitationId: crypto.randomUUID(), url, message };
    });
    throw new McpError(URL_ELICITATION_REQUIRED, "This request needs you to open a link first.", { elicitations });
  }
  const what = mcp.method === "tools/call" ? "tool" : mcp.method === "prompts/get" ? "prompt" : "resource";
  return ended(
    mcp,
    `This ${what} needs to ask you something first, which requires an MCP client that supports protocol ` +
      `${MODERN_PROTOCOL_VERSION}; this client uses ${mcp.protocolVersion}.`,
  );
}

/** An error as the negotiated revision words it: in-band (HTTP 200), resource-not-found as -32002. */
export function legacyError(error: McpError): McpError {
  if (error instanceof ResourceNotFoundError) {
    return new McpError(LEGACY_RESOURCE_NOT_FOUND, "Resource not found", { uri: error.uri });
  }
  return new McpError(error.code, error.message, error.data);
}
