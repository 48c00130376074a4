/**
 * Verifies the `requestState` a request presents, before any handler runs: the seal, the
 * binding to this principal and request, the expiry, and — for single-use entries — that
 * it was not redeemed before. Every failure is the same opaque -32602; the reason is logged.
 */
import { useMcpConfig } from "../config";
import type { OpenedState } from "../context";
import type { Entry } from "../definitions";
import { invalidRequestState } from "../errors";
import type { JsonRpcRequest } from "../jsonrpc";
import { requestBindingOf } from "./binding";
import { openRequestState } from "./codec";
import { useStateKeyRing } from "./key-ring";
import { isRedeemed } from "./redemptions";

/** Undefined when the request names no known target: the method itself then reports it. */
export async function verifyRequestState(message: JsonRpcRequest, principal: string, entry: Entry | undefined): Promise<OpenedState | undefined> {
  const binding = requestBindingOf(message.method, message.params, principal);
  if (!binding || !entry) return undefined;
  const opened = await openRequestState(await useStateKeyRing(), message.params.requestState, binding, {
    maxLength: useMcpConfig().stateMaxLength,
  });
  const reject = (reason: string): never => {
    // The client only ever sees the one opaque error; the reason is for the operator.
    console.warn(`[mcp] requestState rejected on ${message.method} ${JSON.stringify(binding.target)}: ${reason}`);
    throw invalidRequestState();
  };
  if (!opened.ok) return reject(opened.reason);
  if (entry.singleUseState && (await isRedeemed(opened.claims.jti))) return reject("already redeemed");
  return { data: opened.claims.data, id: opened.claims.jti, expiresAt: opened.claims.exp, singleUse: entry.singleUseState };
}
