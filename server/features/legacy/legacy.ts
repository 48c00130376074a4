/**
 * The legacy era: clients of 2025-11-25, 2025-06-18 and 2025-03-26, served statelessly by an adapter in front of the
 * 2026-07-28 core.
 *
 * - Reading (`readLegacyRequest`, the adapter): a request without the 2026 envelope is this era's. `initialize` negotiates a
 *   version; later requests are recognised by their `MCP-Protocol-Version` header, and without it by the version their
 *   session negotiated (2025-06-18 lets the server assume it; some clients, Gemini CLI among them, send no header after
 *   `initialize`), else taken as 2025-03-26, as those revisions allow. An unknown version header gets -32022 (400). The
 *   session it presents is opened (404 when it does not open: `session.ts`), and gives the core what the client declared.
 * - Serving (`serveLegacy`, the adapter's layer around dispatch): `initialize` answers with capabilities and a sealed
 *   `Mcp-Session-Id`; `ping` and `logging/setLevel` answer `{}` (the level is not remembered, so these requests get log
 *   messages at LEGACY_LOG_LEVEL, which those revisions allow before any level is known). Results lose the 2026-only fields
 *   (`resultType`, caching hints, `_meta` serverInfo); errors use the negotiated revision's codes (resource not found is
 *   -32002) and HTTP 200.
 * - A question is asked on the POST's stream when the session says the client can answer it (`ask.ts`; the answers arrive
 *   through `answers.ts`). Otherwise a URL-mode question on a 2025-11-25 request becomes that revision's -32042, and anything
 *   else ends the call with a clear message (an `isError` result for tools).
 */
import { setResponseHeader, type H3Event } from "h3";
import {
  finalResult,
  invalidParams,
  isFinalResult,
  isInputRequiredOutcome,
  isPlainObject,
  LOG_LEVELS,
  McpError,
  MissingCapabilitiesError,
  MODERN_PROTOCOL_VERSION,
  readProgressToken,
  requestHeader,
  ResourceNotFoundError,
  retryWith,
  serverCapabilities,
  supportedProtocolVersions,
  unsupportedProtocolVersion,
  useMcpConfig,
  type AdaptedFields,
  type InputRequest,
  type JsonRpcRequest,
  type LoggingLevel,
  type McpContext,
  type MethodHandler,
  type Middleware,
  type Outcome,
} from "../../mcp/kit";
import { askLegacyClient, canAsk, carriesAnswers, ended, isUrlElicitation, sessionCapabilities } from "./ask";
import { mintSession, presentedSession, type LegacySession } from "./session";
import { subscribe, unsubscribe } from "./subscriptions";

/** The adapter's name: what `mcp.adapter` says of the requests it reads (and the request log's "era"). */
export const LEGACY = "legacy";
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

/** The adapter: what the core cannot read from a 2025-era request; undefined leaves a `2026-07-28` header to the core. */
export async function readLegacyRequest(event: H3Event, message: JsonRpcRequest): Promise<AdaptedFields | undefined> {
  const header = requestHeader(event, "mcp-protocol-version")?.trim();
  if (message.method !== "initialize" && header === MODERN_PROTOCOL_VERSION) return undefined;
  if (message.method !== "initialize" && header !== undefined && !LEGACY_VERSIONS.includes(header)) {
    throw unsupportedProtocolVersion(header, supportedProtocolVersions());
  }
  const session = await presentedSession(event, message.method);
  event.context.legacySession = session;
  const protocolVersion =
    message.method === "initialize"
      ? negotiateLegacyVersion(message.params.protocolVersion)
      : (header ?? session?.version ?? HEADERLESS_LEGACY_VERSION);
  const meta = isPlainObject(message.params._meta) ? message.params._meta : {};
  return {
    protocolVersion,
    clientCapabilities: sessionCapabilities(session),
    logLevel: LEGACY_LOG_LEVEL,
    progressToken: readProgressToken(meta),
  };
}

async function initialize(mcp: McpContext) {
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
    capabilities: serverCapabilities(true),
    serverInfo: config.serverInfo,
    ...(config.instructions ? { instructions: config.instructions } : {}),
  };
}

function setLogLevel(mcp: McpContext) {
  if (!LOG_LEVELS.includes(mcp.params.level as LoggingLevel)) {
    throw invalidParams(`level must be one of ${LOG_LEVELS.join(", ")}`);
  }
  return {};
}

/** The methods only this era has: a Map, since a method name is the client's, and an object would answer `constructor`. */
const LEGACY_METHODS: ReadonlyMap<string, MethodHandler> = new Map([
  ["initialize", initialize],
  ["ping", () => ({})],
  ["logging/setLevel", setLogLevel],
  ["resources/subscribe", subscribe],
  ["resources/unsubscribe", unsubscribe],
]);

/** A result as the 2025 revisions shape it: no caching hints (nor `resultType`, nor serverInfo: nothing adds them). */
function legacyResult(result: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { ttlMs: _ttl, cacheScope: _scope, ...rest } = result;
  return rest;
}

/**
 * What a handler's "ask first" becomes for a client that cannot be asked (`requests`: what it asked; `missing`: the
 * capabilities its session did not declare, when that was the reason).
 */
function cannotAsk(
  mcp: McpContext,
  requests: readonly InputRequest[],
  missing?: MissingCapabilitiesError,
): Record<string, unknown> {
  if (mcp.protocolVersion === "2025-11-25" && requests.length > 0 && requests.every(isUrlElicitation)) {
    const elicitations = requests.map((request) => {
      const { message, url } = request.params as { message: string; url: string };
      return { mode: "url", elicitationId: crypto.randomUUID(), url, message };
    });
    throw new McpError(URL_ELICITATION_REQUIRED, "This request needs you to open a link first.", { elicitations });
  }
  const what = mcp.method === "tools/call" ? "tool" : mcp.method === "prompts/get" ? "prompt" : "resource";
  // The cause the client can act on, when it is the one: it connected (a session) without declaring what its revision lets
  // it declare, and this server could have carried its answers.
  const revisionCanAskAll = requests.every((request) => revisionCanAsk(mcp.protocolVersion, request));
  if (missing && mcp.event.context.legacySession && carriesAnswers() && revisionCanAskAll) {
    return ended(
      mcp,
      `This ${what} needs to ask you something first (${missing.what}), which this client did not declare when it ` +
        `connected: it takes a client that declares it, or one that supports protocol ${MODERN_PROTOCOL_VERSION}; this ` +
        `client uses ${mcp.protocolVersion}.`,
    );
  }
  const need = requests.length > 0 ? "to ask you something first" : "what only a newer client has";
  return ended(
    mcp,
    `This ${what} needs ${need}, which requires an MCP client that supports protocol ` +
      `${MODERN_PROTOCOL_VERSION}; this client uses ${mcp.protocolVersion}.`,
  );
}

/** Whether a 2025 revision has this kind of question at all: elicitation came in 2025-06-18, its URL mode in 2025-11-25. */
const revisionCanAsk = (version: string, request: InputRequest): boolean =>
  request.method !== "elicitation/create" ||
  (isUrlElicitation(request) ? version === "2025-11-25" : version !== "2025-03-26");

/** What the request is answered with, in this era: asked on its stream, or shaped as its revision has results. */
async function answered(mcp: McpContext, outcome: Outcome, next: (mcp: McpContext) => Promise<Outcome>) {
  if (isFinalResult(outcome)) return outcome.result;
  if (!isInputRequiredOutcome(outcome)) return legacyResult(outcome);
  const session = mcp.event.context.legacySession;
  if (!canAsk(session, outcome)) return cannotAsk(mcp, Object.values(outcome.inputRequests));
  const retry = async (asked: typeof outcome, answers: Readonly<Record<string, unknown>>) =>
    next(await retryWith(mcp, answers, asked.state));
  return askLegacyClient(mcp, session as LegacySession, outcome, retry, { result: legacyResult, cannotAsk });
}

/** An error as the negotiated revision words it: in-band (HTTP 200), resource-not-found as -32002. */
function legacyError(error: McpError): McpError {
  if (error instanceof ResourceNotFoundError) {
    return new McpError(LEGACY_RESOURCE_NOT_FOUND, "Resource not found", { uri: error.uri });
  }
  return new McpError(error.code, error.message, error.data);
}

/** The adapter's layer around dispatch, for the requests it read: this era's own methods, and its shapes of every other answer. */
export const serveLegacy: Middleware = async (mcp, next) => {
  try {
    const own = LEGACY_METHODS.get(mcp.method);
    const outcome = own ? await own(mcp) : await next(mcp);
    return finalResult(await answered(mcp, outcome as Outcome, next));
  } catch (error) {
    // A question this client cannot answer (its session did not declare it, or nothing carries answers back).
    if (error instanceof MissingCapabilitiesError) {
      return finalResult(cannotAsk(mcp, Object.values(error.unanswerable), error));
    }
    throw error instanceof McpError ? legacyError(error) : error;
  }
};
