/**
 * At most NITRO_MCP_LEGACY_SUBSCRIBED_SESSIONS sessions of one caller (`McpContext.caller`: its principal, or an anonymous
 * address) keep subscriptions at once, across every instance. A session costs nothing to start and its list stays in the
 * store until the session expires, so without a bound any caller could fill the store by starting sessions.
 *
 * A caller's slots are one record in the atomic store: the lists that hold one, each with its session's expiry. A session's
 * first subscription adds its list by compare-and-set (of two racing, one writes and the other reads again), after dropping
 * the lists that have expired or emptied; a list emptied by `resources/unsubscribe` is dropped at once. A list just added
 * has CLAIM_GRACE_MS to be written before it counts as empty. One list is in the record at most once.
 */
import { SETTINGS } from "./settings";
import { digestKeySegment, isPlainObject, nowSeconds, useSettings, type AtomicStore } from "../../mcp/kit";

/** Long enough for a claimant to write its list (a read and a compare-and-set, on a slow store, between instances' clocks). */
const CLAIM_GRACE_MS = 30_000;

interface Slot {
  /** The store key of the session's list. */
  readonly list: string;
  /** Until when the slot holds while its list is still empty (ms since the epoch). */
  readonly pendingUntil: number;
  /** When its session expires (s since the epoch). */
  readonly expiresAt: number;
}

const isSlot = (value: unknown): value is Slot =>
  isPlainObject(value) &&
  typeof value.list === "string" &&
  typeof value.pendingUntil === "number" &&
  typeof value.expiresAt === "number";

const slotsKey = async (caller: string) => `legacy-subscribers:${await digestKeySegment(caller)}`;

/** The stored record (our own writing; anything else reads as no slots). */
function parseSlots(stored: string | null): Slot[] {
  try {
    const slots: unknown = stored === null ? [] : JSON.parse(stored);
    return Array.isArray(slots) ? slots.filter(isSlot) : [];
  } catch {
    return [];
  }
}

/** Replaces the record by `slots` (kept until the last of their sessions expires); true when no other change came first. */
async function replaceSlots(store: AtomicStore, key: string, stored: string | null, slots: Slot[]): Promise<boolean> {
  const ttlSeconds = Math.max(1, ...slots.map((slot) => slot.expiresAt - nowSeconds()));
  const next = JSON.stringify(slots);
  return stored === null
    ? store.setIfAbsent(key, next, ttlSeconds)
    : store.compareAndSet(key, stored, next, ttlSeconds);
}

/**
 * Gives `list` (about to get its first URI, which `isEmpty` reads) one of `caller`'s slots until its session expires in
 * `ttlSeconds`: "held" once it has one, "full" when every slot holds another live list, "raced" when another change of the
 * caller's slots came first (read again).
 */
export async function holdSubscriberSlot(
  store: AtomicStore,
  caller: string,
  list: string,
  isEmpty: (list: string) => Promise<boolean>,
  ttlSeconds: number,
): Promise<"held" | "full" | "raced"> {
  const key = await slotsKey(caller);
  const stored = await store.get(key);
  const others: Slot[] = [];
  for (const slot of parseSlots(stored)) {
    if (slot.list === list || slot.expiresAt <= nowSeconds()) continue;
    if (Date.now() < slot.pendingUntil || !(await isEmpty(slot.list))) others.push(slot);
  }
  if (others.length >= useSettings(SETTINGS).legacySubscribedSessions) return "full";
  const mine = { list, pendingUntil: Date.now() + CLAIM_GRACE_MS, expiresAt: nowSeconds() + ttlSeconds };
  return (await replaceSlots(store, key, stored, [...others, mine])) ? "held" : "raced";
}

/** Gives back `list`'s slot once it is empty (one attempt: a slot not given back is taken over once its list reads empty). */
export async function releaseSubscriberSlot(store: AtomicStore, caller: string, list: string): Promise<void> {
  const key = await slotsKey(caller);
  const stored = await store.get(key);
  const slots = parseSlots(stored);
  if (slots.some((slot) => slot.list === list))
    await replaceSlots(
      store,
      key,
      stored,
      slots.filter((slot) => slot.list !== list),
    );
}
