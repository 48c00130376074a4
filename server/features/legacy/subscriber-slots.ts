/**
 * At most NITRO_MCP_LEGACY_SUBSCRIBED_SESSIONS sessions of one caller (`McpContext.caller`: its principal, or an anonymous
 * address) keep subscriptions at once, across every instance. A session costs nothing to start and its list stays in the
 * store until the session expires, so without a bound any caller could fill the store by starting sessions.
 *
 * A caller has that many slots in the atomic store. A slot names the list that holds it and expires with it. A session's
 * first subscription claims a free slot (`setIfAbsent`: of two racing for one, one wins) or takes over, by compare-and-set,
 * one whose list has emptied or expired. A claimant has CLAIM_GRACE_MS to write its list before an empty list counts as
 * gone, so a session that unsubscribes from everything frees its slot at most that long after it claimed it. Nothing ever
 * has to free a slot, so none can leak.
 */
import { SETTINGS } from "./settings";
import { digestKeySegment, useSettings, type AtomicStore } from "../../mcp/kit";

/** Long enough for a claimant to write its list (a read and a compare-and-set, on a slow store). */
const CLAIM_GRACE_MS = 5_000;

interface Slot {
  /** The store key of the session's list. */
  readonly list: string;
  /** Until when the slot holds while its list is still empty. */
  readonly pendingUntil: number;
}

/**
 * Holds one of `caller`'s slots for the list at `list` (which `isEmpty` reads), for `ttlSeconds`: true when the list already
 * held one or has now claimed one, false when every slot holds another list of this caller.
 */
export async function holdSubscriberSlot(
  store: AtomicStore,
  caller: string,
  list: string,
  isEmpty: (list: string) => Promise<boolean>,
  ttlSeconds: number,
): Promise<boolean> {
  const owner = await digestKeySegment(caller);
  const claim = JSON.stringify({ list, pendingUntil: Date.now() + CLAIM_GRACE_MS } satisfies Slot);
  for (let index = 0; index < useSettings(SETTINGS).legacySubscribedSessions; index++) {
    const key = `legacy-subscriber:${owner}:${index}`;
    const held = await store.get(key);
    if (held === null) {
      if (await store.setIfAbsent(key, claim, ttlSeconds)) return true;
      continue;
    }
    // Its own slot is claimed afresh too: its list is empty again until written, and must not be taken over meanwhile.
    const slot = JSON.parse(held) as Slot;
    const free = slot.list === list || (Date.now() >= slot.pendingUntil && (await isEmpty(slot.list)));
    if (free && (await store.compareAndSet(key, held, claim, ttlSeconds))) return true;
  }
  return false;
}
