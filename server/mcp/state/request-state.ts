/**
 * The life of `requestState`, in one place, as `routes/mcp.post.ts` shows it (beside it: `codec.ts`, `keys.ts`, `cipher*.ts`).
 * - Opening (`openRequestState`, the route's step after reading), before any handler runs: the state a request presents is verified
 *   (seal, request binding, expiry, principal) and, for a `singleUseState` definition, claimed — the claim is the check, so of two
 *   retries racing with one state at most one gets through.
 * - Sealing (`sealRequestState`, which the route hands to `respond`), when a handler asks for input: its state is sealed for this
 *   very request (principal, method, target, arguments), to be opened on the next round. (A task keeps its state unsealed instead.)
 *
 * Every refusal is the same opaque -32602, whatever the reason (naming the failed check would hand the client an oracle); it is logged.
 */
import { stateCipher } from "#mcp-state-cipher";
import type { H3Event } from "h3";
import { useAtomicStore } from "../atomic-store";
import { useMcpConfig } from "../config";
import type { OpenedState, RequestTarget } from "../context";
import { internalError, invalidRequestState } from "../errors";
import { useObserver } from "../features";
import { sendError } from "../http/error-reply";
import { isPlainObject, nowSeconds } from "../internal/basics";
import { logWarning } from "../log";
import {
  CLOCK_SKEW_SECONDS,
  openRequestState as openSealed,
  sealRequestState as sealForRound,
  type RequestBinding,
} from "./codec";
import { createStateKeyRing, type StateKeyRing } from "./keys";

let ring: Promise<StateKeyRing> | undefined;

/**
 * The key ring, built once per process (or isolate): `NITRO_MCP_STATE_SECRET` seals and opens, `..._PREVIOUS` entries only open, a secret
 * under 32 bytes stops the start-up. No secret: a random per-process key in `nitropack dev` (warned); a build cannot seal, so cannot ask.
 */
export function useStateKeyRing(): Promise<StateKeyRing> {
  if (ring) return ring;
  const config = useMcpConfig();
  const allowEphemeral = !config.stateSecret && !!import.meta.dev;
  if (allowEphemeral) {
    logWarning(
      "NITRO_MCP_STATE_SECRET is not set: requestState is sealed with a random key that lives only in this dev process. " +
        "Set a secret of at least 32 bytes before running more than one instance or deploying.",
    );
  } else if (!config.stateSecret) {
    logWarning("NITRO_MCP_STATE_SECRET is not set: tools, prompts and resources that ask for input are disabled.");
  }
  ring = createStateKeyRing({
    cipher: stateCipher,
    secret: config.stateSecret,
    previous: config.stateSecretPrevious,
    allowEphemeral,
  });
  return ring;
}

/**
 * Claims a single-use state's id with the store's own atomic primitive, until the state expires anyway: true for the first claim,
 * false for every later one, on any number of instances. The claim is made before the handler runs and stays whatever it does: a
 * handler that fails after its claim needs a fresh round one (the state was spent, the action may have started).
 */
async function claimStateId(stateId: string, expiresAt: number): Promise<boolean> {
  const store = useAtomicStore();
  // The storage plugin refuses to start without one when a definition is single use.
  if (!store) throw new Error("no atomic store for single-use claims");
  const ttlSeconds = Math.max(1, expiresAt + CLOCK_SKEW_SECONDS - nowSeconds());
  return store.setIfAbsent(`claim:${stateId}`, "1", ttlSeconds);
}

/** What a state is bound to: who asked, and which request it continues (resources/read has no arguments). */
const bindingOf = (
  principal: string,
  method: string,
  target: RequestTarget,
  params: Readonly<Record<string, unknown>>,
): RequestBinding => ({
  principal,
  method,
  target: target.name,
  arguments: method === "resources/read" ? undefined : params.arguments,
});

/** A round of a multi-round flow: the request, and who sends it. */
export interface IncomingRound {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly principal: string;
  readonly target?: RequestTarget;
}

/**
 * Opens a request's `requestState`: the state and the answers it may use. Throws the opaque -32602 when a presented state does
 * not open (or, single use, was claimed before); answers to a single-use definition without the state it issued are ignored.
 */
export async function openIncomingState(
  round: IncomingRound,
): Promise<{ state?: OpenedState; inputResponses: Readonly<Record<string, unknown>> }> {
  const { method, params, principal, target } = round;
  const answers = isPlainObject(params.inputResponses) ? params.inputResponses : {};
  const entry = target?.entry;
  // An unknown target is reported by the method itself.
  if (!("requestState" in params) || !target || !entry) return { inputResponses: entry?.singleUseState ? {} : answers };

  const config = useMcpConfig();
  const ring = await useStateKeyRing();
  const opened = await useObserver().step("requestState open", {}, () =>
    openSealed(ring, params.requestState, bindingOf(principal, method, target, params), {
      maxLength: config.stateMaxLength,
    }),
  );
  const refuse = (reason: string): never => {
    logWarning(`requestState rejected on ${method} ${JSON.stringify(target.name.slice(0, 200))}: ${reason}`);
    throw invalidRequestState();
  };
  if (!opened.ok) return refuse(opened.reason);
  if (entry.singleUseState && !(await claimStateId(opened.claims.jti, opened.claims.exp)))
    return refuse("already redeemed");
  return { state: { data: opened.claims.data }, inputResponses: answers };
}

/** Seals `data`, the author's state, for the next round of this very request: what `respond` puts in `requestState`. */
export async function sealRequestState(round: IncomingRound, data: Readonly<Record<string, unknown>>): Promise<string> {
  const config = useMcpConfig();
  const ring = await useStateKeyRing();
  if (!ring.sealing)
    throw internalError("This server cannot ask for input: its operator has not configured NITRO_MCP_STATE_SECRET");
  // Only tools/call, prompts/get and resources/read may ask, and each of them names its target.
  if (!round.target) throw internalError();
  const binding = bindingOf(round.principal, round.method, round.target, round.params);
  const requestState = await useObserver().step("requestState seal", {}, () =>
    sealForRound(ring, binding, { ...data }, { ttlSeconds: config.stateTtlSeconds }),
  );
  if (requestState.length > config.stateMaxLength) {
    logWarning(
      `the state returned by ${round.method} seals to ${requestState.length} characters, over NITRO_MCP_STATE_MAX_LENGTH ` +
        `(${config.stateMaxLength}); keep large data in storage and put its id in the state`,
    );
    throw internalError();
  }
  return requestState;
}

/** Step of `POST /mcp`, after reading: opens the request's `requestState` into `mcp.state` (and the answers it allows), or refuses it (-32602). */
export async function openRequestState(event: H3Event): Promise<void> {
  const mcp = event.context.mcp!;
  if (mcp.era !== "modern") return; // 2025-era requests carry no state
  try {
    Object.assign(mcp, await useObserver().within(event, () => openIncomingState(mcp)));
  } catch (error) {
    return sendError(event, mcp.id, error);
  }
}
