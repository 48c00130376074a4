/**
 * Single-use `requestState`: its id is claimed in the shared store with the store's own atomic
 * primitive (see `server/mcp/atomic-store.ts`), until the state expires anyway. Of any number of
 * retries presenting one state, on any number of instances, exactly one claim succeeds.
 *
 * The claim is made before the handler runs and stays whatever the handler does: a handler that
 * fails after its claim needs a fresh round one (the state was spent, the action may have started).
 */
import { useAtomicStore } from "../atomic-store";
import { nowSeconds } from "../internal/time";
import { CLOCK_SKEW_SECONDS } from "./codec";

/** True for the first claim of `stateId`, false for every later one. */
export async function claimStateId(stateId: string, expiresAt: number): Promise<boolean> {
  const store = useAtomicStore();
  // The storage plugin refuses to start without one when a definition is single use.
  if (!store) throw new Error("no atomic store for single-use claims");
  const ttlSeconds = Math.max(1, expiresAt + CLOCK_SKEW_SECONDS - nowSeconds());
  return store.setIfAbsent(`claim:${stateId}`, "1", ttlSeconds);
}
