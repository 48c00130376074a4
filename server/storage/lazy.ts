/** A store whose client loads at start-up, not awaited (ioredis is a tenth of a cold start): each operation waits for it. */
import type { Driver } from "unstorage";
import type { AtomicStore } from "../mcp/atomic-store";

export interface LoadedStore {
  readonly driver: Driver;
  readonly atomic: AtomicStore;
  /** The store's own client (see `SelectedStorage.client`). */
  readonly client: unknown;
}

/** The driver methods unstorage calls on a store like Redis (optional ones it falls back from when absent). */
const DRIVER_METHODS = ["hasItem", "getItem", "setItem", "removeItem", "getKeys", "clear", "dispose"] as const;
const ATOMIC_METHODS = ["get", "setIfAbsent", "compareAndSet", "delete"] as const;

type Method = (...args: unknown[]) => unknown;

export function lazyStore(
  name: string,
  load: () => Promise<LoadedStore>,
): { driver: Driver; atomic: AtomicStore; loadedClient: Promise<unknown> } {
  const loaded = load();
  const loadedClient = loaded.then((store) => store.client);
  loadedClient.catch(() => {}); // reported by each operation instead
  const forward = <T extends object>(pick: (store: LoadedStore) => T, methods: readonly string[]) =>
    Object.fromEntries(
      methods.map((method) => [
        method,
        async (...args: unknown[]) => (pick(await loaded) as Record<string, Method | undefined>)[method]?.(...args),
      ]),
    );
  return {
    driver: { name, ...forward((store) => store.driver, DRIVER_METHODS) } as unknown as Driver,
    atomic: { name, ...forward((store) => store.atomic, ATOMIC_METHODS) } as unknown as AtomicStore,
    loadedClient,
  };
}
