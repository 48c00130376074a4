/**
 * Short-lived records in unstorage whose expiry holds on every driver. Drivers with an
 * expiry of their own drop expired keys themselves (`ttl`); the memory and file drivers ignore it,
 * so the expiry is also stored with the value, checked on every read, and expired records
 * are swept on those drivers at most once a minute (a sweep reads every key).
 */
import { useStorage } from "nitropack/runtime";
import { logError, nowSeconds as now } from "../mcp/kit";

interface Stored<T> {
  value: T;
  expiresAt: number;
}

const SWEEP_INTERVAL_SECONDS = 60;
const DRIVERS_WITHOUT_TTL = new Set(["memory", "fs", "fs-lite"]);

export interface ExpiringStore<T> {
  get(key: string): Promise<T | null>;
  set(key: string, value: T, ttlSeconds: number): Promise<void>;
}

export function expiringStore<T>(base: string): ExpiringStore<T> {
  const storage = () => useStorage(base);
  let lastSweep = now();

  async function sweep(): Promise<void> {
    const driver = useStorage().getMount(base).driver.name ?? "";
    if (!DRIVERS_WITHOUT_TTL.has(driver)) return;
    for (const key of await storage().getKeys()) {
      const item = await storage().getItem<Stored<T>>(key);
      if (!item || item.expiresAt < now()) await storage().removeItem(key);
    }
  }

  return {
    async get(key) {
      const item = await storage().getItem<Stored<T>>(key);
      return item && item.expiresAt >= now() ? item.value : null;
    },
    async set(key, value, ttlSeconds) {
      await storage().setItem<Stored<T>>(
        key,
        { value, expiresAt: now() + ttlSeconds },
        { ttl: Math.max(60, ttlSeconds) },
      );
      if (now() - lastSweep >= SWEEP_INTERVAL_SECONDS) {
        lastSweep = now();
        // In the background: the request that happens to trigger it should not wait for it.
        void sweep().catch((error) => logError("sweeping expired records failed", error));
      }
    },
  };
}
