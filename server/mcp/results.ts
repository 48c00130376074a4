/**
 * Turns what a method returned into the wire result of the request's era:
 * - complete: `resultType: "complete"` and `_meta["io.modelcontextprotocol/serverInfo"]`;
 * - input required: the author's state sealed into `requestState` (re-sealed on every round).
 */
import { useMcpConfig } from "./config";
import type { McpContext } from "./context";
import { internalError } from "./errors";
import type { InputRequiredOutcome } from "./input-required";
import { META } from "./protocol";
import { requestBindingOf } from "./state/binding";
import { sealRequestState } from "./state/codec";
import { useStateKeyRing } from "./state/key-ring";

let serverInfoMeta: Record<string, unknown> | undefined;

/**
 * A copy of `result` with `_meta["io.modelcontextprotocol/serverInfo"]`, keeping any `_meta` the
 * handler set. Never mutates: a handler may return the same object every time.
 */
function withServerInfo(result: Record<string, unknown>): Record<string, unknown> {
  serverInfoMeta ??= { [META.serverInfo]: useMcpConfig().serverInfo };
  const meta = result._meta as Record<string, unknown> | undefined;
  return { ...result, _meta: meta ? { ...meta, ...serverInfoMeta } : serverInfoMeta };
}

export const completeResult = (result: Record<string, unknown>) => withServerInfo({ ...result, resultType: "complete" });

export async function inputRequiredResult(mcp: McpContext, outcome: InputRequiredOutcome): Promise<Record<string, unknown>> {
  // createInputRequiredOutcome() allowed only methods that have a binding.
  const binding = requestBindingOf(mcp.method, mcp.params, mcp.principal)!;
  const config = useMcpConfig();
  const ring = await useStateKeyRing();
  if (!ring.sealing) {
    throw internalError("This server cannot ask for input: its operator has not configured NITRO_MCP_STATE_SECRET");
  }
  const requestState = await sealRequestState(ring, binding, { ...outcome.state }, { ttlSeconds: config.stateTtlSeconds });
  if (requestState.length > config.stateMaxLength) {
    console.error(
      `[mcp] the state returned by ${mcp.method} seals to ${requestState.length} characters, over NITRO_MCP_STATE_MAX_LENGTH (${config.stateMaxLength}); keep large data in storage and put its id in the state`,
    );
    throw internalError();
  }
  return withServerInfo({ resultType: "input_required", inputRequests: outcome.inputRequests, requestState });
}
