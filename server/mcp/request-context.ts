/**
 * Builds the `McpContext` of one JSON-RPC request: validates `_meta`, the mirrored
 * headers and the protocol version, and verifies `requestState` — all before any
 * handler runs. Throws `McpError` with the right code and HTTP status.
 */
import type { H3Event } from "h3";
import { useMcpConfig } from "./config";
import type { McpContext } from "./context";
import { invalidParams, invalidRequestState, unsupportedProtocolVersion } from "./errors";
import { ResponseChannel } from "./http/channel";
import { checkParamHeaders, checkStandardHeaders, type HeaderReader } from "./http/mcp-headers";
import { requestHeader } from "./http/request-headers";
import { isPlainObject, type JsonRpcRequest } from "./jsonrpc";
import { LEGACY_LOG_LEVEL } from "./legacy";
import { parseRequestMeta, readProgressToken } from "./request-meta";
import { registry } from "./registry";
import { requestBindingOf } from "./state/binding";
import { openRequestState } from "./state/codec";
import { useStateKeyRing } from "./state/key-ring";
import { isRedeemed } from "./state/redemptions";
import { MODERN_VERSIONS, selectEra, supportedProtocolVersions } from "./versions";
import type { Entry } from "./definitions";

/** The entry a request with `requestState` continues (to learn whether its state is single-use). */
function entryOf(message: JsonRpcRequest): Entry | undefined {
  const { name, uri } = message.params;
  if (message.method === "tools/call" && typeof name === "string") return registry.toolsByName.get(name);
  if (message.method === "prompts/get" && typeof name === "string") return registry.promptsByName.get(name);
  if (message.method === "resources/read" && typeof uri === "string") return registry.findResource(uri)?.entry;
  return undefined;
}

async function verifyRequestState(message: JsonRpcRequest, principal: string, entry: Entry | undefined) {
  const binding = requestBindingOf(message.method, message.params, principal);
  if (!binding || !entry) return undefined; // the method itself reports the unknown target
  const config = useMcpConfig();
  const opened = await openRequestState(await useStateKeyRing(), message.params.requestState, binding, {
    maxLength: config.stateMaxLength,
  });
  const reject = (reason: string): never => {
    // The client only ever sees the one opaque error; the reason is for the operator.
    console.warn(`[mcp] requestState rejected on ${message.method} (${binding.target}): ${reason}`);
    throw invalidRequestState();
  };
  if (!opened.ok) return reject(opened.reason);
  if (entry.singleUseState && (await isRedeemed(opened.claims.jti))) return reject("already redeemed");
  return {
    data: opened.claims.data,
    id: opened.claims.jti,
    expiresAt: opened.claims.exp,
    singleUse: entry.singleUseState,
  };
}

/** Cancels the request when a Node client disconnects before the response is complete. */
function cancelOnDisconnect(event: H3Event, channel: ResponseChannel): void {
  const response = event.node?.res;
  if (typeof response?.once !== "function") return; // Workers: the stream's cancel() does it
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
  checkStandardHeaders(read, message, meta.protocolVersion);
  if (!MODERN_VERSIONS.includes(meta.protocolVersion)) {
    throw unsupportedProtocolVersion(meta.protocolVersion, supportedProtocolVersions());
  }

  const { params } = message;
  if (message.method === "tools/call" && typeof params.name === "string") {
    const tool = registry.toolsByName.get(params.name);
    if (tool?.headerParams.length) checkParamHeaders(read, tool.headerParams, params.arguments);
  }
  if ("inputResponses" in params && !isPlainObject(params.inputResponses)) {
    throw invalidParams("params.inputResponses must be an object mapping input request keys to responses");
  }

  const entry = entryOf(message);
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
