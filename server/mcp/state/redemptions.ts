/**
 * Single-use `requestState`: the id of a redeemed state is recorded in storage until it
 * expires, so a second presentation is refused, on this instance or any other sharing
 * the storage.
 *
 * Check-then-set, not atomic: two concurrent redemptions of one state can both pass, and
 * on an eventually consistent store (Workers KV) a replay at another location can pass
 * for up to about a minute. Keep the guarded action idempotent, as `delete_note` is; a
 * strict once-only needs an atomic store (Redis SET NX, a Durable Object).
 */
import { expiringStore } from "../expiring-storage";
import { CLOCK_SKEW_SECONDS } from "./codec";

const redeemed = expiringStore<true>("mcp:redemptions");

export async function isRedeemed(stateId: string): Promise<boolean> {
  return (await redeemed.get(stateId)) !== null;
}

export async function markRedeemed(stateId: string, expiresAt: number): Promise<void> {
  await redeemed.set(stateId, true, expiresAt + CLOCK_SKEW_SECONDS - Math.floor(Date.now() / 1000));
}
