/**
 * Single-use `requestState`: the id of a redeemed state is recorded in storage until it
 * expires, so a second presentation is refused, on this instance or any other sharing
 * the storage. Two concurrent redemptions of the same state can both pass the check
 * (storage offers no atomic test-and-set through unstorage); keep the guarded action
 * idempotent, as `delete_note` is.
 */
import { useStorage } from "nitropack/runtime";
import { CLOCK_SKEW_SECONDS } from "./codec";

const storage = () => useStorage("mcp:redemptions");

export async function isRedeemed(stateId: string): Promise<boolean> {
  return (await storage().getItem(stateId)) !== null;
}

export async function markRedeemed(stateId: string, expiresAt: number): Promise<void> {
  const ttl = Math.max(60, expiresAt + CLOCK_SKEW_SECONDS - Math.floor(Date.now() / 1000));
  await storage().setItem(stateId, expiresAt, { ttl });
}
