/**
 * The life of `requestState`, in one place (the codec beside it: `codec.ts`, `keys.ts`, `cipher*.ts`):
 * - opening (`openRequestState`, the route's step after authorizing), before any handler runs: the state a request presents
 *   is verified (seal, request binding, expiry, principal) and, for a `singleUseState` definition, claimed — the claim is
 *   the check, so of two retries racing with one state at most one gets through;
 * - sealing (`sealRequestState`, which `respond` calls beside it), when a handler asks for input: its state is sealed for
 *   this very request (principal, method, target, arguments), to be opened on the next round;
 * - a retry made by the server itself (`retryWith`, for an adapter that asks its client another way): sealed, then opened
 *   (and claimed) exactly as the client's retry would be.
 *
 * Every refusal is the same opaque -32602, whatever the reason (naming the failed check would hand the client an oracle); it is logged.
 */
import { stateCipher } from "#mcp-platform";
import type { H3Event } from "h3";
import { useMcpConfig } from "../config";
import { contextWith, type McpContext, type RequestTarget } from "../context";
import type { Entry } from "../entries";
import { internalError, invalidRequestState } from "../errors";
import { inRequestScope, runStep } from "../hooks";
import { sendError } from "../http/error-reply";
import { isPlainObject, nowSeconds } from "../internal/basics";
import { logWarning } from "../log";
import { useAtomicStore } from "../store";
import { openClaims, sealClaims, type OpenResult, type RequestBinding } from "./codec";
import { createStateKeyRing, type StateKeyRing } from "./keys";

let ring: Promise<StateKeyRing> | undefined;
/** The ring once built: opening a state then answers at once (with `node:crypto`), no promise to wait for. */
let built: StateKeyRing | undefined;

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
  }).then((keys) => (built = keys));
  return ring;
}

/**
 * Seals `data` for `binding` with this server's keys, for `ttlSeconds`: a token only this server opens, and only for that
 * binding (a purpose of its own in `method` keeps it from ever opening as a requestState). Undefined when this server
 * cannot seal (a build without NITRO_MCP_STATE_SECRET).
 * @example const token = await sealToken({ principal, method: "session", target: "", arguments: undefined }, { v: 1 }, 86400);
 */
export async function sealToken(
  binding: RequestBinding,
  data: Record<string, unknown>,
  ttlSeconds: number,
): Promise<string | undefined> {
  const keys = await useStateKeyRing();
  return keys.sealing ? sealClaims(keys, binding, data, { ttlSeconds }) : undefined;
}

/**
 * Opens a token sealed by `sealToken` for `binding`: its claims (`jti`, a random id; `exp`; `data`), or the reason it does
 * not open, for the log (answer every reason alike: naming it would hand the client an oracle). Await it: with `node:crypto` and
 * the keys built it answers at once, otherwise with a promise.
 * @example const opened = await openToken(presented, binding); if (!opened.ok) logWarning(`refused: ${opened.reason}`);
 */
export function openToken(token: unknown, binding: RequestBinding): OpenResult | Promise<OpenResult> {
  const open = (keys: StateKeyRing) => openClaims(keys, token, binding, { maxLength: useMcpConfig().stateMaxLength });
  return built ? open(built) : useStateKeyRing().then(open);
}

/**
 * How long a claim outlives what it claims: an instance whose clock lags opens a state or token after its expiry by the clock of
 * the others, and must still find the claim (the codec tolerates a few seconds; this covers far more).
 */
const CLAIM_MARGIN_SECONDS = 60;

/**
 * Claims the id of an opened state or token with the store's own atomic primitive, until well after it expires: true for the first
 * claim, false for every later one, on any number of instances. Claim before acting, and keep the claim whatever happens: an action
 * that fails after its claim needs a fresh state or token (the first was spent, the action may have started).
 * @example if (opened.ok && (await claimOnce(opened.claims))) await act();
 */
export function claimOnce(claims: { jti: string; exp: number }): boolean | Promise<boolean> {
  const store = useAtomicStore();
  // The storage plugin refuses to start without one when a definition is single use; tokens are issued only with one.
  if (!store) throw new Error("no atomic store for single-use claims");
  const ttlSeconds = Math.max(1, claims.exp + CLAIM_MARGIN_SECONDS - nowSeconds());
  return store.setIfAbsent(`claim:${claims.jti}`, "1", ttlSeconds);
}

/** A round of a multi-round flow: the request, and who sends it. */
type Round = Pick<McpContext, "method" | "params" | "principal" | "target">;

/** What a state is bound to: who asked, and which request it continues (resources/read has no arguments). */
const bindingOf = ({ principal, method, params }: Round, target: RequestTarget): RequestBinding => ({
  principal,
  method,
  target: target.name,
  arguments: method === "resources/read" ? undefined : params.arguments,
});

type Opened = Pick<McpContext, "state" | "inputResponses">;

/**
 * Opens a round's `requestState`: the state and the answers it may use. Throws the opaque -32602 when a presented state does
 * not open (or, single use, was claimed before); answers to a single-use definition without the state it issued are ignored.
 * Without a state it answers at once, not as a promise: most requests carry none, and a promise costs each a microtask.
 */
function openState(round: Round): Opened | Promise<Opened> {
  const answers = isPlainObject(round.params.inputResponses) ? round.params.inputResponses : {};
  const entry = round.target?.entry;
  // An unknown target is reported by the method itself.
  if (!("requestState" in round.params) || !entry) return { inputResponses: entry?.singleUseState ? {} : answers };
  return openPresentedState(round, round.target!, entry, answers);
}

/**
 * Opens the presented state, then claims it when the definition is single use. With `node:crypto` and a store in memory, each
 * answers at once, and so does this: a retry waits for no promise it does not need.
 */
function openPresentedState(
  round: Round,
  target: RequestTarget,
  entry: Entry,
  answers: Opened["inputResponses"],
): Opened | Promise<Opened> {
  const refuse = (reason: string): never => {
    logWarning(`requestState rejected on ${round.method} ${JSON.stringify(target.name.slice(0, 200))}: ${reason}`);
    throw invalidRequestState();
  };
  const claimed = (opened: OpenResult): Opened | Promise<Opened> => {
    if (!opened.ok) return refuse(opened.reason);
    const fresh = entry.singleUseState ? claimOnce(opened.claims) : true;
    const kept = (first: boolean) =>
      first ? { state: { data: opened.claims.data }, inputResponses: answers } : refuse("already redeemed");
    return fresh instanceof Promise ? fresh.then(kept) : kept(fresh);
  };
  const opened = runStep("requestState open", {}, () => openToken(round.params.requestState, bindingOf(round, target)));
  return opened instanceof Promise ? opened.then(claimed) : claimed(opened);
}

/** Seals `data`, the author's state, for the next round of this very request: what `respond` puts in `requestState`. */
export async function sealRequestState(round: Round, data: Readonly<Record<string, unknown>>): Promise<string> {
  const config = useMcpConfig();
  const keys = await useStateKeyRing();
  if (!keys.sealing) {
    throw internalError("This server cannot ask for input: its operator has not configured NITRO_MCP_STATE_SECRET");
  }
  // Only tools/call, prompts/get and resources/read may ask, and each of them names its target.
  if (!round.target) throw internalError();
  const binding = bindingOf(round, round.target);
  const requestState = await runStep("requestState seal", {}, () =>
    sealClaims(keys, binding, { ...data }, { ttlSeconds: config.stateTtlSeconds }),
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

/**
 * The round the client's retry would send, made by the server (an adapter whose client answers another way): `inputResponses`
 * and the state `data` sealed, then opened and claimed as the client's retry would be. Run the handler with it.
 * @example const round = await retryWith(mcp, answers, outcome.state); return next(round);
 */
export async function retryWith(
  mcp: McpContext,
  inputResponses: Readonly<Record<string, unknown>>,
  data: Readonly<Record<string, unknown>>,
): Promise<McpContext> {
  const params = { ...mcp.params, inputResponses, requestState: await sealRequestState(mcp, data) };
  const round = contextWith(mcp, { params });
  return Object.assign(round, await openState(round));
}

/** Step of `POST /mcp`, after authorizing: opens the request's `requestState` into `mcp.state` (and the answers it allows), or refuses it (-32602). */
export function openRequestState(event: H3Event): Promise<void> | void {
  const mcp = event.context.mcp!;
  // A request read by an adapter carries no state: its client answers another way.
  if (mcp.adapter) return;
  const refuse = (error: unknown) => sendError(event, mcp.id, error);
  try {
    const opened = inRequestScope(event, () => openState(mcp));
    if (!(opened instanceof Promise)) return void Object.assign(mcp, opened);
    return opened.then((fields) => void Object.assign(mcp, fields), refuse);
  } catch (error) {
    return refuse(error);
  }
}
