/**
 * Resource updates for 2025-era clients: `resources/subscribe` and `resources/unsubscribe` on a session, and the GET
 * stream (2025-11-25 transport) that carries `notifications/resources/updated` for the session's URIs.
 *
 * The sealed session stores nothing, so its subscriptions are the one thing remembered for it: a list of URIs in the
 * store (its atomic operations, which expire in every store), under a key derived from the session id, expiring with the
 * session. A change replaces the list by compare-and-set; of requests of the same session changing it at once (on any
 * instances) all but one lose each race, and each loser tries again after a random wait that doubles with each loss
 * (CHANGE_BUDGET_MS in all), so that they spread out rather than collide again. Each change of the list is also
 * announced on the session's own bus channel, so a GET stream open on any instance follows it. An update is sent only
 * while its URI is still in the stored list: once `resources/unsubscribe` is answered, no update for that URI follows.
 * The stream ends by the core's stream deadline (as a 2026-07-28 listen stream does), or when the client goes away; the
 * client then opens another GET.
 */
import { getRequestHeader, setResponseHeaders, setResponseStatus, type H3Event } from "h3";
import { openSession, sessionHeader, sessionNotFound, type LegacySession } from "./session";
import { SETTINGS } from "./settings";
import { holdSubscriberSlot, releaseSubscriberSlot } from "./subscriber-slots";
import {
  authenticate,
  callerKey,
  digestKeySegment,
  disconnectWatcher,
  ErrorCode,
  invalidParams,
  invalidRequest,
  limitExceeded,
  logWarning,
  MAX_URI_LENGTH,
  MAX_SUBSCRIBED_URIS,
  mayAct,
  McpError,
  notificationMessage,
  nowSeconds,
  resourceChannel,
  ResponseChannel,
  runRequestChecks,
  sendError,
  servedResource,
  SSE_HEADERS,
  StorageUnavailableError,
  streamDeadline,
  takeShare,
  useAtomicStore,
  useMessageBus,
  useSettings,
  wait,
  type AtomicStore,
  type BusSubscription,
  type McpContext,
  type MessageBus,
  type Subscriber,
} from "../../mcp/kit";

/**
 * How long one change may go on losing races to other changes of the same session's list before it gives up (503).
 * Changes at once are written one after the other, each a read and a compare-and-set: the budget leaves room for a
 * session's 20 URIs on a slow store. Only that session's own requests contend for its list.
 */
const CHANGE_BUDGET_MS = 10_000;
/**
 * How long an emptied list is kept, rather than the session's day: absent and empty read alike, and a change that read it
 * either way still loses its race to compare-and-set, so a caller cycling subscribe and unsubscribe leaves nothing behind.
 */
const EMPTIED_LIST_SECONDS = 1;
/** The wait after a first lost race; it doubles after each, up to MAX_BACKOFF_MS, and each wait is a random part of it. */
const FIRST_BACKOFF_MS = 4;
const MAX_BACKOFF_MS = 250;

const OPENED = new TextEncoder().encode(": resource updates of this session\n\n");

const storeKey = async (session: LegacySession) => `legacy-subscriptions:${await digestKeySegment(session.id)}`;
const sessionChannel = async (session: LegacySession) => `legacy-session-${await digestKeySegment(session.id)}`;

/** The stored list (our own writing; anything else reads as empty). */
function parseUris(stored: string | null): string[] {
  try {
    const uris: unknown = stored === null ? [] : JSON.parse(stored);
    return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === "string") : [];
  } catch {
    return [];
  }
}

const subscribedUris = async (store: AtomicStore, session: LegacySession) =>
  parseUris(await store.get(await storeKey(session)));
const isEmpty = (store: AtomicStore) => async (key: string) => parseUris(await store.get(key)).length === 0;

/** What subscribing needs: the store's atomic operations, its bus, and the session the request presents. */
function needs(mcp: McpContext): { store: AtomicStore; bus: MessageBus; session: LegacySession } {
  const store = useAtomicStore();
  const bus = useMessageBus();
  if (!store || !bus)
    throw new McpError(
      ErrorCode.MethodNotFound,
      `${mcp.method} is not offered: the store has no message bus (or no atomic operations) to carry resource updates`,
    );
  const session = mcp.event.context.legacySession;
  if (!session)
    throw invalidRequest(`${mcp.method} needs a session: send the Mcp-Session-Id that initialize answered with`);
  return { store, bus, session };
}

function uriParam(mcp: McpContext): string {
  const uri = mcp.params.uri;
  if (typeof uri !== "string" || uri.length > MAX_URI_LENGTH)
    throw invalidParams(`params.uri must be a resource URI of at most ${MAX_URI_LENGTH} characters`);
  return uri;
}

/** One of the caller's slots for the session's list (429 when every one holds another session's), or "raced". */
async function takeSlot(mcp: McpContext, store: AtomicStore, list: string, ttlSeconds: number) {
  const slot = await holdSubscriberSlot(store, mcp.caller, list, isEmpty(store), ttlSeconds);
  if (slot !== "full") return slot;
  const { legacySubscribedSessions: limit } = useSettings(SETTINGS);
  throw limitExceeded(
    `At most ${limit} sessions per caller keep subscriptions at once (NITRO_MCP_LEGACY_SUBSCRIBED_SESSIONS): unsubscribe on another session first`,
    { limit },
  );
}

/** Replaces the session's list with `change(list)`, atomically against concurrent changes, then announces it on the session's channel. */
async function changeSubscriptions(
  mcp: McpContext,
  change: (uris: string[]) => string[],
): Promise<Record<string, never>> {
  const { store, bus, session } = needs(mcp);
  const key = await storeKey(session);
  const ttlSeconds = Math.max(1, session.expiresAt - nowSeconds());
  const giveUpAt = Date.now() + CHANGE_BUDGET_MS;
  for (let attempt = 0; ; attempt++) {
    const stored = await store.get(key);
    const current = parseUris(stored);
    const next = change(current);
    if (next.length > MAX_SUBSCRIBED_URIS)
      throw invalidParams(
        `a session subscribes to at most ${MAX_SUBSCRIBED_URIS} resources: unsubscribe from one first`,
      );
    const value = JSON.stringify(next);
    // Nothing to change (a URI subscribed to twice, or never): nothing to write, and no race to lose.
    if (value === (stored ?? "[]")) return {};
    // A session's first URI takes one of its caller's slots; its last gives it back.
    const slot = current.length === 0 && next.length > 0 ? await takeSlot(mcp, store, key, ttlSeconds) : "held";
    const keptSeconds = next.length > 0 ? ttlSeconds : EMPTIED_LIST_SECONDS;
    const written =
      slot === "held" &&
      (stored === null
        ? await store.setIfAbsent(key, value, keptSeconds)
        : await store.compareAndSet(key, stored, value, keptSeconds));
    if (written) {
      if (next.length === 0) await releaseSubscriberSlot(store, mcp.caller, key);
      await bus.publish(await sessionChannel(session), mcp.principal, {});
      return {};
    }
    // Lost a race (another change came first): still within the rules, so try again, or answer "try again shortly".
    if (Date.now() >= giveUpAt)
      throw new StorageUnavailableError(
        "compare-and-set",
        `the session's list kept changing for ${CHANGE_BUDGET_MS} ms`,
      );
    await wait(Math.random() * Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** attempt));
  }
}

/** `resources/subscribe`: a URI this server serves and the caller may read (-32602 otherwise). */
export function subscribe(mcp: McpContext): Promise<Record<string, never>> {
  const uri = uriParam(mcp);
  const target = servedResource(uri);
  if (!mayAct(mcp, "resources/read", target))
    throw invalidParams(`no resource on this server has the URI ${JSON.stringify(uri)}`);
  return changeSubscriptions(mcp, (uris) => (uris.includes(uri) ? uris : [...uris, uri]));
}

/** `resources/unsubscribe`: a URI not subscribed to is already unsubscribed from. */
export function unsubscribe(mcp: McpContext): Promise<Record<string, never>> {
  const uri = uriParam(mcp);
  return changeSubscriptions(mcp, (uris) => uris.filter((subscribed) => subscribed !== uri));
}

/**
 * The GET responder: a request presenting a session and accepting an event stream, when the store has a bus and its
 * atomic operations; anything else is left to the next responder (and then 405).
 */
export function sessionStream(event: H3Event): Promise<unknown> | undefined {
  const token = sessionHeader(event);
  const bus = useMessageBus();
  const store = useAtomicStore();
  if (token === undefined || !bus || !store || !getRequestHeader(event, "accept")?.includes("text/event-stream"))
    return undefined;
  return openStream(event, token, store, bus);
}

async function openStream(event: H3Event, token: string, store: AtomicStore, bus: MessageBus): Promise<unknown> {
  let session: LegacySession | undefined;
  let release: () => void;
  // Who calls, then the same request checks as a POST (a rate limit counts this stream too), then the caller's share of streams.
  try {
    await authenticate(event);
    if (!event.context.mcpAuth) return undefined; // refused (401), answered
    await runRequestChecks(event);
    if (event.handled) return undefined; // refused (429), answered
    session = await openSession(token, event.context.mcpAuth.principal);
    if (!session) return sendError(event, undefined, sessionNotFound());
    release = takeShare("streams", callerKey(event, event.context.mcpAuth));
  } catch (error) {
    return sendError(event, undefined, error);
  }
  const auth = event.context.mcpAuth;
  const channel = new ResponseChannel(disconnectWatcher(event));
  setResponseStatus(event, 200);
  setResponseHeaders(event, SSE_HEADERS);
  // A comment first, so the status and headers go out now rather than with the first update.
  const stream = channel
    .openStream()
    .pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ start: (head) => head.enqueue(OPENED) }));
  void carryUpdates(channel, session, { principal: auth.principal, caller: callerKey(event, auth) }, store, bus)
    .catch((error) =>
      logWarning(`resource updates stream ended (${error instanceof Error ? error.message : String(error)})`),
    )
    .finally(() => {
      channel.cancel();
      release();
    });
  return stream;
}

/** Follows the session's list (on its channel) and sends each update of a URI in it, until the deadline or the client goes. */
async function carryUpdates(
  channel: ResponseChannel,
  session: LegacySession,
  subscriber: Subscriber,
  store: AtomicStore,
  bus: MessageBus,
): Promise<void> {
  const deadline = streamDeadline();
  const changes = await bus.subscribe(await sessionChannel(session), subscriber);
  const watched = new Map<string, BusSubscription>();
  const closeAll = () => {
    changes.close();
    for (const subscription of watched.values()) subscription.close();
  };
  channel.signal.addEventListener("abort", closeAll, { once: true });
  if (channel.closed) closeAll();

  const carry = async (uri: string, subscription: BusSubscription) => {
    while ((await subscription.next(deadline - Date.now())) !== undefined) {
      if ((await subscribedUris(store, session)).includes(uri))
        channel.send(notificationMessage("notifications/resources/updated", { uri }));
    }
  };
  const follow = async () => {
    const uris = await subscribedUris(store, session);
    for (const [uri, subscription] of watched) {
      if (uris.includes(uri)) continue;
      subscription.close();
      watched.delete(uri);
    }
    for (const uri of uris.filter((uri) => !watched.has(uri))) {
      const subscription = await bus.subscribe(await resourceChannel(uri), subscriber);
      if (channel.closed) return subscription.close();
      watched.set(uri, subscription);
      void carry(uri, subscription).catch(() => channel.cancel());
    }
  };
  try {
    await follow();
    while (!channel.closed && (await changes.next(deadline - Date.now())) !== undefined) await follow();
  } finally {
    channel.signal.removeEventListener("abort", closeAll);
    closeAll();
  }
}
