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
import { isPlainObject, type JsonRpcRequest } from "./jsonrpc";
import { parseRequestMeta } from "./request-meta";
import { registry } from "./registry";
import { requestBindingOf } from "./state/binding";
import { openRequestState } from "./state/codec";
import { useStateKeyRing } from "./state/key-ring";
import { isRedeemed } from "./state/redemptions";
import { supportedProtocolVersions } from "./versions";
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

export async function createMcpContext(event: H3Event, message: JsonRpcRequest, principal: string): Promise<McpContext> {
  const read: HeaderReader = (name) => event.headers.get(name) ?? undefined;
  const meta = parseRequestMeta(message.params);
  checkStandardHeaders(read, message, meta.protocolVersion);
  const supported = supportedProtocolVersions();
  if (!supported.includes(meta.protocolVersion)) throw unsupportedProtocolVersion(meta.protocolVersion, supported);

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
  const inputResponses = answersAccepted && isPlainObject(params.inputResponses) ? params.inputResponses : {};

  const abort = new AbortController();
  const channel = new ResponseChannel(abort);
  cancelOnDisconnect(event, channel);
  return {
    id: message.id,
    method: message.method,
    params,
    era: "modern",
    protocolVersion: meta.protocolVersion,
    clientCapabilities: meta.clientCapabilities,
    clientInfo: meta.clientInfo,
    logLevel: meta.logLevel,
    progressToken: meta.progressToken,
    principal,
    signal: abort.signal,
    inputResponses,
    state,
    event,
    channel,
  };
}
