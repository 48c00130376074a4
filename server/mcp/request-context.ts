/**
 * Builds the `McpContext` of one JSON-RPC request, for its era. For a 2026-07-28 request:
 * `_meta`, the mirrored headers and the version, `inputResponses`, and `requestState`,
 * all checked before any handler runs. Throws `McpError` with the right code and status.
 */
import type { H3Event } from "h3";
import type { McpContext } from "./context";
import { invalidParams } from "./errors";
import { ResponseChannel } from "./http/channel";
import { checkMethodHeaders, checkParamHeaders, checkVersionHeader, type HeaderReader } from "./http/mcp-headers";
import { requestHeader } from "./http/request-headers";
import { isPlainObject, type JsonRpcRequest } from "./jsonrpc";
import { LEGACY_LOG_LEVEL } from "./legacy";
import { parseRequestMeta, readProgressToken } from "./request-meta";
import { registry } from "./registry";
import { targetOf } from "./request-target";
import { verifyRequestState } from "./state/verify";
import { requireModernVersion, selectEra } from "./versions";
import type { Entry } from "./definitions";

/** The tool, prompt or resource a request acts on, if it exists. */
function entryOf(message: JsonRpcRequest): Entry | undefined {
  const target = targetOf(message.method, message.params)?.value;
  if (typeof target !== "string") return undefined;
  if (message.method === "tools/call") return registry.toolsByName.get(target);
  if (message.method === "prompts/get") return registry.promptsByName.get(target);
  return registry.findResource(target)?.entry;
}

/** Cancels the request when a Node client disconnects before the response is complete. */
function cancelOnDisconnect(event: H3Event, channel: ResponseChannel): void {
  const response = event.node?.res;
  // On Workers the response object is a stand-in: an SSE stream is cancelled through its
  // ReadableStream instead, and a JSON answer is produced at once anyway.
  if (typeof response?.once !== "function") return;
  response.once("close", () => {
    if (!response.writableFinished) channel.cancel();
  });
}

type EraFields = Omit<McpContext, "id" | "method" | "params" | "principal" | "signal" | "event" | "channel">;

function finishContext(event: H3Event, message: JsonRpcRequest, principal: string, fields: EraFields): McpContext {
  const channel = new ResponseChannel();
  cancelOnDisconnect(event, channel);
  return {
    id: message.id,
    method: message.method,
    params: message.params,
    principal,
    get signal() {
      return channel.signal;
    },
    event,
    channel,
    ...fields,
  };
}

/** 2026-07-28: `_meta`, mirrored headers, version, `inputResponses` and `requestState`, all checked up front. */
async function modernFields(read: HeaderReader, message: JsonRpcRequest, principal: string): Promise<EraFields> {
  const meta = parseRequestMeta(message.params);
  checkVersionHeader(read, meta.protocolVersion);
  requireModernVersion(meta.protocolVersion);
  checkMethodHeaders(read, message);

  const { params } = message;
  const entry = entryOf(message);
  if (entry?.kind === "tool" && entry.headerParams.length) checkParamHeaders(read, entry.headerParams, params.arguments);
  if ("inputResponses" in params && !isPlainObject(params.inputResponses)) {
    throw invalidParams("params.inputResponses must be an object mapping input request keys to responses");
  }

  const state = "requestState" in params ? await verifyRequestState(message, principal, entry) : undefined;
  // A single-use entry only takes answers that come with the state it issued.
  const answersAccepted = !(entry?.singleUseState && !state);
  return {
    era: "modern",
    protocolVersion: meta.protocolVersion,
    clientCapabilities: meta.clientCapabilities,
    clientInfo: meta.clientInfo,
    logLevel: meta.logLevel,
    progressToken: meta.progressToken,
    inputResponses: answersAccepted && isPlainObject(params.inputResponses) ? params.inputResponses : {},
    state,
  };
}

/**
 * 2025-era requests: no `_meta` envelope, no mirrored headers, and no memory of what the
 * client declared at `initialize` (which may have reached another instance), so nothing
 * can be asked of it. Logs are sent at the legacy default level (see legacy.ts).
 */
function legacyFields(message: JsonRpcRequest, version: string): EraFields {
  const meta = isPlainObject(message.params._meta) ? message.params._meta : {};
  return {
    era: "legacy",
    protocolVersion: version,
    clientCapabilities: {},
    logLevel: LEGACY_LOG_LEVEL,
    progressToken: readProgressToken(meta),
    inputResponses: {},
  };
}

export async function createMcpContext(event: H3Event, message: JsonRpcRequest, principal: string): Promise<McpContext> {
  const read: HeaderReader = (name) => requestHeader(event, name);
  const selection = selectEra(message, read("mcp-protocol-version"));
  const fields =
    selection.era === "modern" ? await modernFields(read, message, principal) : legacyFields(message, selection.version);
  return finishContext(event, message, principal, fields);
}
