/**
 * Asking a 2025-era client, as those revisions do: on the SSE response of its POST, each question becomes the matching
 * server-to-client request (`elicitation/create`, `sampling/createMessage`, `roots/list`), and the answers come back as
 * separate POSTs, to whichever instance (`answers.ts`), which keeps each in the store (the atomic operation that claims
 * it) and announces it on the message bus. The instance holding the stream waits on the bus, reads each answer announced
 * from the store (an answer may be far larger than a bus message), then runs the handler again with the answers and the
 * sealed state exactly as a 2026-07-28 retry would (the core's `retry`: a single-use state is claimed there), until the
 * result.
 *
 * Each question's id is a token sealed for this session, this call's channel, this round and its deadline: unguessable,
 * and checked by whichever instance the answer reaches. Bounded: `NITRO_MCP_LEGACY_ASK_TIMEOUT_SECONDS` per round,
 * `NITRO_MCP_LEGACY_ASK_MAX_ROUNDS` rounds. `notifications/cancelled` for the call, or the client closing the stream,
 * ends the wait.
 *
 * A URL-mode question the client accepted and the handler, run again, does not ask again is one whose out-of-band step
 * the handler took as done (it would ask again otherwise): the stream tells the client so with
 * `notifications/elicitation/complete` (2025-11-25), before the next round or the result.
 */
import { PURPOSE, sealToken, type LegacySession } from "./session";
import { SETTINGS } from "./settings";
import {
  base64UrlEncode,
  clientCanAnswer,
  clip,
  digestKeySegment,
  ErrorCode,
  internalError,
  isInputRequiredOutcome,
  isPlainObject,
  logWarning,
  McpError,
  randomBytes,
  streamDeadline,
  takeShare,
  useAtomicStore,
  useMessageBus,
  useSettings,
  type AtomicStore,
  type InputRequest,
  type InputRequiredOutcome,
  type McpContext,
  type MessageBus,
  type RequestId,
} from "../../mcp/kit";

/** Runs the request again with `inputResponses` and the state of `outcome`, as the client's retry would: what the handler returns. */
export type Retry = (
  outcome: InputRequiredOutcome,
  inputResponses: Readonly<Record<string, unknown>>,
) => Promise<unknown>;

/** What an answer's id holds (sealed): where to publish it, for which question of which round, and until when. */
export interface AnswerTicket {
  readonly channel: string;
  readonly round: string;
  readonly key: string;
  /** Milliseconds since the epoch: an answer after this is late. */
  readonly until: number;
}

/**
 * What travels on the bus to the waiting instance: a cancellation, or that the question `key` of `round` was answered.
 * The answer itself is in the store, under `answerStoreKey(round, key)`, which the waiting instance knows without being told.
 */
export type BusMessage = { cancel: true } | { round: string; key: string };

/** An answer as it is stored: the JSON-RPC response's `result` or `error`. */
export type StoredAnswer = { result: unknown } | { error: unknown };

/** Where the answer to question `key` of `round` is kept, and claimed: one key per question ever asked (a round is random). */
export const answerStoreKey = async (round: string, key: string): Promise<string> =>
  `legacy-answer:${await digestKeySegment(`${round}\n${key}`)}`;

/** What asking needs besides the session: a bus to announce answers on, and the store's atomic operations to keep them. */
/** What carries a question's answer to the instance waiting for it: the bus announces it, the store keeps it. */
interface AnswerCarriers {
  readonly bus: MessageBus;
  readonly store: AtomicStore;
}

function answerCarriers(): AnswerCarriers | undefined {
  const bus = useMessageBus();
  const store = useAtomicStore();
  return bus && store ? { bus, store } : undefined;
}

/** Whether this server can carry a 2025-era client's answers back to the call that asked (a message bus and an atomic store). */
export const carriesAnswers = (): boolean => answerCarriers() !== undefined;

/** The bus channel of one call in one session: the cancellation names the call by its id, the answers by their ticket. */
export const callChannel = async (session: LegacySession, requestId: RequestId): Promise<string> =>
  `legacy:${await digestKeySegment(`${session.id}\n${JSON.stringify(requestId)}`)}`;

/**
 * What a request's client declared, as handlers read it (`mcp.clientCapabilities`): its session's declaration, less what it
 * can be asked when nothing can carry its answers back (then a question is refused as one it cannot answer).
 */
export function sessionCapabilities(session: LegacySession | undefined): Readonly<Record<string, unknown>> {
  if (!session) return {};
  if (answerCarriers()) return session.capabilities;
  const { elicitation: _elicitation, sampling: _sampling, roots: _roots, ...others } = session.capabilities;
  return others;
}

/** True when this session's client declared what every question needs (and its answers can be carried). */
export function canAsk(session: LegacySession | undefined, outcome: InputRequiredOutcome): session is LegacySession {
  const requests = Object.values(outcome.inputRequests);
  return (
    carriesAnswers() &&
    !!session &&
    requests.length > 0 &&
    requests.every((request) => clientCanAnswer(session.capabilities, request))
  );
}

/** The request as the session's revision sends it: a URL-mode elicitation carries `elicitationId`; before 2025-11-25 a form has no `mode`. */
function legacyRequest(request: InputRequest, version: string, elicitationId: string | undefined): InputRequest {
  if (request.method !== "elicitation/create") return request;
  const { mode, ...params } = request.params as Record<string, unknown>;
  if (elicitationId) return { method: request.method, params: { elicitationId, mode, ...params } } as InputRequest;
  return { method: request.method, params: version === "2025-11-25" ? { mode, ...params } : params } as InputRequest;
}

/** A URL-mode elicitation: only 2025-11-25 has it, with an `elicitationId`. */
export const isUrlElicitation = (request: InputRequest) =>
  request.method === "elicitation/create" && (request.params as { mode?: unknown }).mode === "url";

/** A round's answers by question key, and the `elicitationId` of each URL-mode question it asked. */
type RoundEnd =
  | { answers: Record<string, unknown>; elicitationIds: Map<string, string> }
  | { failed: string }
  | { cancelled: true };

/**
 * What a question's key holds once its round is over, answered or not: an answer sent later finds the key taken and is
 * refused, and an answer kept is not kept past its reading. (Not JSON: `readAnswer` reads it as none.)
 */
const ROUND_OVER = "round over";

/**
 * Puts ROUND_OVER under each question of `round`, over whatever is there, until the round's deadline: without it, an
 * answer sent to a round nobody waits for any more (its client went away) would stay in the store, at up to a megabyte
 * each, until then. `read` holds the answers read, as stored: replaced without being read back. Best effort: a failing
 * store keeps what it has until the deadline.
 */
async function closeRound(
  store: AtomicStore,
  round: string,
  keys: readonly string[],
  until: number,
  read: ReadonlyMap<string, string>,
): Promise<void> {
  const ttlSeconds = Math.max(1, Math.ceil((until - Date.now()) / 1000) + 5);
  const close = async (key: string) => {
    const stored = await answerStoreKey(round, key);
    // Replaced atomically, so that a copy of an answer sent meanwhile finds the key taken (it is then read back: rare).
    let current = read.get(key) ?? null;
    for (let attempt = 0; attempt < 3 && current !== ROUND_OVER; attempt++) {
      const written =
        current === null
          ? await store.setIfAbsent(stored, ROUND_OVER, ttlSeconds)
          : await store.compareAndSet(stored, current, ROUND_OVER, ttlSeconds);
      if (written) return;
      current = await store.get(stored);
    }
  };
  await Promise.all(keys.map(close)).catch((error: unknown) =>
    logWarning(`legacy round: its answers could not be let go before its deadline (${String(error)})`),
  );
}

/** The answer kept for question `key` of `round` (our own writing; anything else reads as none), noted in `read` as stored. */
async function readAnswer(
  store: AtomicStore,
  round: string,
  key: string,
  read: Map<string, string>,
): Promise<StoredAnswer | undefined> {
  const stored = await store.get(await answerStoreKey(round, key));
  if (stored !== null) read.set(key, stored);
  try {
    const answer: unknown = stored === null ? undefined : JSON.parse(stored);
    return isPlainObject(answer) && ("result" in answer || "error" in answer) ? (answer as StoredAnswer) : undefined;
  } catch {
    return undefined;
  }
}

/** Asks one round's questions and waits for every answer, the deadline, or a cancellation. */
async function askRound(
  mcp: McpContext,
  session: LegacySession,
  { bus, store }: AnswerCarriers,
  channel: string,
  outcome: InputRequiredOutcome,
  streamEnd: number,
): Promise<RoundEnd> {
  const { legacyAskTimeoutSeconds } = useSettings(SETTINGS);
  const round = base64UrlEncode(randomBytes(12));
  // A round waits its own timeout, but never past the end of the stream it is asked on.
  const until = Math.min(Date.now() + legacyAskTimeoutSeconds * 1000, streamEnd);
  const askTimeoutSeconds = Math.max(1, Math.ceil((until - Date.now()) / 1000));
  // Subscribed before anything is sent: an answer published before the subscription would be lost.
  const subscription = await bus.subscribe(channel, { principal: mcp.principal, caller: mcp.caller });
  // Each answer read, as it was stored: what the round's end replaces with its marker.
  const read = new Map<string, string>();
  const stop = () => subscription.close();
  mcp.signal.addEventListener("abort", stop, { once: true });
  try {
    // The client may have gone while the subscription was being made.
    if (mcp.signal.aborted) return { cancelled: true };
    const pending = new Map(Object.entries(outcome.inputRequests));
    const elicitationIds = new Map<string, string>();
    for (const [key, request] of pending) {
      if (isUrlElicitation(request)) elicitationIds.set(key, crypto.randomUUID());
      const ticket: AnswerTicket = { channel, round, key, until };
      const id = await sealToken(mcp.principal, PURPOSE.answer, session.id, { ...ticket }, askTimeoutSeconds);
      // A session was sealed with the same keys, so they still seal.
      if (!id) throw internalError();
      mcp.channel.send(
        JSON.stringify({ jsonrpc: "2.0", id, ...legacyRequest(request, session.version, elicitationIds.get(key)) }),
      );
    }
    const answers: Record<string, unknown> = {};
    while (pending.size > 0) {
      const message = await subscription.next(Math.max(0, until - Date.now()));
      if (mcp.signal.aborted) return { cancelled: true };
      if (message === undefined) return { failed: `The client did not answer within ${askTimeoutSeconds} s.` };
      if (!isPlainObject(message)) continue;
      if (message.cancel === true) return { cancelled: true };
      const { key } = message as Partial<Extract<BusMessage, { round: string }>>;
      if (message.round !== round || typeof key !== "string" || !pending.has(key)) continue;
      const answer = await readAnswer(store, round, key, read);
      if (!answer) continue;
      const method = pending.get(key)!.method;
      pending.delete(key);
      if ("error" in answer) {
        const reason =
          isPlainObject(answer.error) && typeof answer.error.message === "string"
            ? answer.error.message
            : "no reason given";
        return { failed: `The client answered ${method} with an error: ${clip(reason)}` };
      }
      answers[key] = answer.result;
    }
    return { answers, elicitationIds };
  } finally {
    mcp.signal.removeEventListener("abort", stop);
    subscription.close();
    await closeRound(store, round, Object.keys(outcome.inputRequests), until, read);
  }
}

/** The URL-mode questions the client accepted and the handler's next outcome does not ask again. */
function completedElicitations(
  answers: Record<string, unknown>,
  elicitationIds: Map<string, string>,
  next: unknown,
): string[] {
  const askedAgain = isInputRequiredOutcome(next) ? next.inputRequests : {};
  return [...elicitationIds]
    .filter(
      ([key]) => isPlainObject(answers[key]) && answers[key].action === "accept" && !Object.hasOwn(askedAgain, key),
    )
    .map(([, elicitationId]) => elicitationId);
}

/** The request's end when it cannot go on: for a tool, a result the model reads; otherwise an error. */
export function ended(mcp: McpContext, text: string): Record<string, unknown> {
  if (mcp.method === "tools/call") return { content: [{ type: "text", text }], isError: true };
  throw new McpError(ErrorCode.InternalError, text);
}

/** How the legacy era shapes the end of a request: a complete result, and a question it cannot ask this client. */
export interface LegacyShapes {
  result(result: Record<string, unknown>): Record<string, unknown>;
  cannotAsk(mcp: McpContext, requests: readonly InputRequest[]): Record<string, unknown>;
}

/**
 * Asks until the handler returns something else than questions (its result), or asks what this client cannot answer,
 * or a round is not answered in time, or the rounds run out. Cancelled: the stream closes without a result.
 */
export async function askLegacyClient(
  mcp: McpContext,
  session: LegacySession,
  first: InputRequiredOutcome,
  retry: Retry,
  shapes: LegacyShapes,
): Promise<Record<string, unknown>> {
  const carriers = answerCarriers()!;
  const { legacyAskMaxRounds: askMaxRounds } = useSettings(SETTINGS);
  // The call's stream stays open while it waits: one of the caller's streams, until the core's stream deadline.
  const release = takeShare("streams", mcp.caller);
  try {
    return await askUntilAnswered(mcp, session, first, retry, shapes, {
      carriers,
      askMaxRounds,
      streamEnd: streamDeadline(),
    });
  } finally {
    release();
  }
}

async function askUntilAnswered(
  mcp: McpContext,
  session: LegacySession,
  first: InputRequiredOutcome,
  retry: Retry,
  shapes: LegacyShapes,
  { carriers, askMaxRounds, streamEnd }: { carriers: AnswerCarriers; askMaxRounds: number; streamEnd: number },
): Promise<Record<string, unknown>> {
  const channel = await callChannel(session, mcp.id);
  let outcome: unknown = first;
  for (let rounds = 0; isInputRequiredOutcome(outcome); rounds++) {
    if (!canAsk(session, outcome)) return shapes.cannotAsk(mcp, Object.values(outcome.inputRequests));
    if (rounds === askMaxRounds)
      return ended(mcp, `This request asked more than ${askMaxRounds} rounds of questions without finishing.`);
    const end = await askRound(mcp, session, carriers, channel, outcome, streamEnd);
    if ("cancelled" in end) {
      mcp.channel.cancel();
      throw new McpError(ErrorCode.InvalidRequest, "Request cancelled");
    }
    if ("failed" in end) return ended(mcp, end.failed);
    outcome = await retry(outcome, end.answers);
    for (const elicitationId of completedElicitations(end.answers, end.elicitationIds, outcome)) {
      mcp.channel.send(
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId } }),
      );
    }
  }
  return shapes.result(outcome as Record<string, unknown>);
}
