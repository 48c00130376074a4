/**
 * Single-use `requestState`: the id of a state is claimed in shared storage until the state
 * expires, so a second presentation is refused, on this instance or any other sharing the storage.
 */
import { expiringStore } from "../expiring-storage";
import { nowSeconds } from "../internal/time";
import { CLOCK_SKEW_SECONDS } from "./codec";

const claimed = expiringStore<true>("mcp:redemptions");

/** True for the first claim of `stateId`, false for every later one (until the state has expired anyway). */
export async function claimStateId(stateId: string, expiresAt: number): Promise<boolean> {
  if ((await claimed.get(stateId)) !== null) return false;
  await claimed.set(stateId, true, expiresAt + CLOCK_SKEW_SECONDS - nowSeconds());
  return true;
}
