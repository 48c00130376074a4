/**
 * The memory store: Nitro's own in-memory storage (no driver to mount) and atomic operations in this process's memory, each
 * one synchronous step that answers at once (no promise: nothing to wait for, so no deadline). One process only: the default
 * when nothing else is configured, the last store tried. Expired entries are dropped by expiry second, never by a scan of
 * every key, so sustained single-use traffic keeps memory flat.
 */
import { type AtomicStore, defineStore, nowSeconds } from "../../mcp/kit";

export function memoryAtomicStore(): AtomicStore {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  /** Keys by the second they expire in, each under one: a key rewritten again and again is listed once. */
  const expiring = new Map<number, Set<string>>();
  let swept = nowSeconds();

  const live = (entry: { value: string; expiresAt: number } | undefined, now: number): string | null =>
    entry && entry.expiresAt > now ? entry.value : null;

  /** Runs `operation` as one synchronous step, once the keys of every second since the last step are swept. */
  const step = <T>(operation: (now: number) => T): T => {
    const now = nowSeconds();
    for (; swept < now; swept++) {
      // A key deleted, then written again, can still be listed under its earlier second: only what expires goes.
      for (const key of expiring.get(swept) ?? [])
        if ((entries.get(key)?.expiresAt ?? Infinity) <= swept) entries.delete(key);
      expiring.delete(swept);
    }
    return operation(now);
  };

  /** Writes `next` while `key` holds `expected` (null: absent or expired); true when it did. */
  const replace = (key: string, expected: string | null, next: string, ttlSeconds: number) =>
    step((now) => {
      const entry = entries.get(key);
      if (live(entry, now) !== expected) return false;
      const expiresAt = now + ttlSeconds;
      // Listed under one second only: a key rewritten with a later expiry leaves the earlier second's set.
      if (entry) expiring.get(entry.expiresAt)?.delete(key);
      entries.set(key, { value: next, expiresAt });
      expiring.set(expiresAt, (expiring.get(expiresAt) ?? new Set<string>()).add(key));
      return true;
    });

  return {
    name: "memory (this process)",
    get: (key) => step((now) => live(entries.get(key), now)),
    setIfAbsent: (key, value, ttlSeconds) => replace(key, null, value, ttlSeconds),
    compareAndSet: replace,
    delete: (key) => step(() => void entries.delete(key)),
  };
}

export default defineStore({
  order: 100,
  select: () => ({ name: "memory", atomic: memoryAtomicStore() }),
});
