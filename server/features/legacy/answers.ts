/**
 * What a 2025-era client POSTs that is not a request, on a session: its answers to the questions `ask.ts` sent, and
 * `notifications/cancelled`. Whichever instance receives one checks it and publishes it on the bus, where the instance
 * holding the call's stream waits.
 *
 * Answers, as the 2025-11-25 transport prescribes for a POSTed response: 202 once accepted (published); 400, with a
 * JSON-RPC error without id, when it cannot be: an id this server did not issue or issued for another session or
 * principal, a round whose deadline passed, an answer already given. The reason goes to the log, not to the client,
 * which learns nothing about ids it does not hold. A session that does not open is 404, as for any request.
 */
import { sendNoContent, type H3Event } from "h3";
import { useAtomicStore } from "../../mcp/atomic-store";
import { useMessageBus } from "../../mcp/bus";
import { invalidRequest } from "../../mcp/errors";
import { sendError } from "../../mcp/http/error-reply";
import { isPlainObject } from "../../mcp/internal/basics";
import type { JsonRpcNotification, JsonRpcResponse } from "../../mcp/protocol";
import { logWarning } from "../../mcp/log";
import { callChannel, type AnswerTicket, type BusMessage } from "./ask";
import { PURPOSE, openSession, openToken, sessionHeader, sessionNotFound, type LegacySession } from "./session";

/** Any answer this server cannot take: one reply for every reason. */
const notAccepted = () => invalidRequest("This response answers no pending request of this session");

function isTicket(data: Readonly<Record<string, unknown>>): data is Readonly<Record<string, unknown>> & AnswerTicket {
  return (
    typeof data.channel === "string" &&
    typeof data.round === "string" &&
    typeof data.key === "string" &&
    typeof data.until === "number"
  );
}

/** Checks an answer against its sealed id, claims it (once), and publishes it: true when it reached the bus. */
async function deliverAnswer(response: JsonRpcResponse, session: LegacySession, principal: string): Promise<boolean> {
  const bus = useMessageBus();
  const opened = await openToken(response.id, principal, PURPOSE.answer, session.id);
  const refuse = (reason: string) => {
    logWarning(`legacy answer rejected: ${reason}`);
    return false;
  };
  if (!bus) return refuse("no message bus");
  if (!opened.ok) return refuse(opened.reason);
  const ticket = opened.claims.data;
  if (!isTicket(ticket)) return refuse("malformed ticket");
  const left = ticket.until - Date.now();
  if (left <= 0) return refuse("after the round's deadline");
  // Of any number of copies of one answer, on any instance, the first is delivered.
  const store = useAtomicStore();
  if (store && !(await store.setIfAbsent(`answer:${opened.claims.jti}`, "1", Math.ceil(left / 1000) + 5)))
    return refuse("already answered");
  const answer = "error" in response ? { error: response.error } : { result: response.result };
  const message: BusMessage = { round: ticket.round, key: ticket.key, answer };
  await bus.publish(ticket.channel, principal, message);
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
