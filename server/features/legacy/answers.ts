/**
 * What a 2025-era client POSTs that is not a request, on a session: its answers to the questions `ask.ts` sent, and
 * `notifications/cancelled`. Whichever instance receives an answer checks it, keeps it in the store and announces it on
 * the bus, where the instance holding the call's stream waits; a cancellation is published as it is.
 *
 * The answer is kept by the very operation that claims it (`setIfAbsent` under its question's key): of any number of
 * copies, on any instance, the first is kept, and the bus carries only a small announcement, so an answer is bounded by
 * the body limit and ANSWER_MAX_BYTES, not by a bus message's. If the announcement cannot be published, the claim is let
 * go and the client is answered 503: the same answer sent again is taken.
 *
 * Answers, as the 2025-11-25 transport prescribes for a POSTed response: 202 once accepted (kept and announced); 400,
 * with a JSON-RPC error without id, when it cannot be: an id this server did not issue or issued for another session or
 * principal, a round whose deadline passed or that nobody waits for any more (its stream closed), an answer already given. The reason goes to the log, not to the client,
 * which learns nothing about ids it does not hold. A session that does not open is 404, as for any request; an answer
 * over ANSWER_MAX_BYTES is 413.
 */
import { sendNoContent, type H3Event } from "h3";
import { answerStoreKey, callChannel, type AnswerTicket, type BusMessage, type StoredAnswer } from "./ask";
import { PURPOSE, openSession, openToken, sessionHeader, sessionNotFound, type LegacySession } from "./session";
import {
  invalidRequest,
  isPlainObject,
  logWarning,
  sendError,
  StorageUnavailableError,
  useAtomicStore,
  useMessageBus,
  utf8Encode,
  type JsonRpcNotification,
  type JsonRpcResponse,
} from "../../mcp/kit";

/**
 * The largest answer kept, as JSON (its `result` or `error`): one value in the store, which every store of the
 * template keeps (the smallest bound among them is 2 MB, key included). The default
 * body limit (1 MiB) is below it, so any answer the body limit lets through fits unless that limit is raised.
 */
export const ANSWER_MAX_BYTES = 1024 * 1024;

/** Any answer this server cannot take: one reply for every reason. */
const notAccepted = () => invalidRequest("This response answers no pending request of this session");

const tooLarge = () =>
  invalidRequest(`This answer is larger than this server keeps (${ANSWER_MAX_BYTES} bytes of JSON)`, 413);

function isTicket(data: Readonly<Record<string, unknown>>): data is Readonly<Record<string, unknown>> & AnswerTicket {
  return (
    typeof data.channel === "string" &&
    typeof data.round === "string" &&
    typeof data.key === "string" &&
    typeof data.until === "number"
  );
}

/**
 * Checks an answer against its sealed id, claims and keeps it (once), and announces it: true when announced, false when
 * refused; throws 413 for an answer too large to keep, and 503 (the claim let go) when it could not be announced.
 */
async function deliverAnswer(response: JsonRpcResponse, session: LegacySession, principal: string): Promise<boolean> {
  const bus = useMessageBus();
  const store = useAtomicStore();
  const opened = await openToken(response.id, principal, PURPOSE.answer, session.id);
  const refuse = (reason: string) => {
    logWarning(`legacy answer rejected: ${reason}`);
    return false;
  };
  if (!bus || !store) return refuse("no message bus, or no atomic operations to keep answers");
  if (!opened.ok) return refuse(opened.reason);
  const ticket = opened.claims.data;
  if (!isTicket(ticket)) return refuse("malformed ticket");
  const left = ticket.until - Date.now();
  if (left <= 0) return refuse("after the round's deadline");
  const answer: StoredAnswer = "error" in response ? { error: response.error } : { result: response.result };
  const kept = JSON.stringify(answer);
  if (utf8Encode(kept).byteLength > ANSWER_MAX_BYTES) throw tooLarge();
  // Kept until the round's deadline: a copy sent later, to any instance, finds it claimed.
  const key = await answerStoreKey(ticket.round, ticket.key);
  if (!(await store.setIfAbsent(key, kept, Math.ceil(left / 1000) + 5)))
    return refuse("already answered, or its round is over");
  const message: BusMessage = { round: ticket.round, key: ticket.key };
  try {
    await bus.publish(ticket.channel, principal, message);
  } catch (error) {
    // Nobody heard of it: let go of the claim, so that the client can send it again.
    try {
      await store.delete(key);
    } catch (reason) {
      logWarning(`legacy answer: its claim could not be let go (${String(reason)})`);
    }
    throw error instanceof StorageUnavailableError ? error : new StorageUnavailableError("publish", error);
  }
  return true;
}

/** Publishes a cancellation of one of this session's calls; a cancellation naming no call of ours reaches nobody. */
async function deliverCancellation(
  notification: JsonRpcNotification,
  session: LegacySession,
  principal: string,
): Promise<void> {
  const requestId = notification.params.requestId;
  const bus = useMessageBus();
  if (!bus || !(typeof requestId === "string" || (typeof requestId === "number" && Number.isInteger(requestId))))
    return;
  const message: BusMessage = { cancel: true };
  await bus.publish(await callChannel(session, requestId), principal, message);
}

async function receiveOnSession(
  event: H3Event,
  token: string,
  message: JsonRpcNotification | JsonRpcResponse,
): Promise<void> {
  try {
    const principal = event.context.mcpAuth!.principal;
    const session = await openSession(token, principal);
    if (!session) return await sendError(event, undefined, sessionNotFound());
    if (message.kind === "notification") {
      if (message.method === "notifications/cancelled" && isPlainObject(message.params))
        await deliverCancellation(message, session, principal);
      return sendNoContent(event, 202);
    }
    if (!(await deliverAnswer(message, session, principal))) return await sendError(event, undefined, notAccepted());
    return sendNoContent(event, 202);
  } catch (error) {
    return sendError(event, undefined, error);
  }
}

/** `LegacyEra.receive`: a notification or response that presents a session is this feature's; anything else is left to the core. */
export function receiveOnLegacySession(
  event: H3Event,
  message: JsonRpcNotification | JsonRpcResponse,
): Promise<void> | undefined {
  const token = sessionHeader(event);
  return token === undefined ? undefined : receiveOnSession(event, token, message);
}
