/**
 * A store whose client is imported when the server starts but not waited for: loading ioredis
 * takes a tenth of a cold start, and a server configured for memory or files never loads it at all.
 * The driver, atomic store and bus returned are usable at once; each operation waits for the load (begun
 * immediately, so it is done before the first request in practice) and, had it failed, fails like
 * any other storage failure (503, the reason in the log).
 */
import type { Driver } from "unstorage";
import type { AtomicStore } from "../mcp/atomic-store";
import type { MessageBus } from "../mcp/bus";

export interface LoadedStore {
  readonly driver: Driver;
  readonly atomic: AtomicStore;
  readonly bus: MessageBus;
}

/** The driver methods unstorage calls on a store like Redis (optional ones it falls back from when absent). */
const DRIVER_METHODS = ["hasItem", "getItem", "setItem", "removeItem", "getKeys", "clear", "dispose"] as const;
const ATOMIC_METHODS = ["get", "setIfAbsent", "compareAndSet", "delete", "consume"] as const;
const BUS_METHODS = ["publish", "subscribe"] as const;

type Method = (...args: unknown[]) => unknown;

/** `busName`: what the bus will be called (a bus shared across instances). */
export function lazyStore(name: string, busName: string, load: () => Promise<LoadedStore>): LoadedStore {
  const loaded = load();
  loaded.catch(() => {}); // reported by each operation instead
  const forward = <T extends object>(pick: (store: LoadedStore) => T, methods: readonly string[]) =>
    Object.fromEntries(
      methods.map((method) => [method, async (...args: unknown[]) => ((pick(await loaded) as Record<string, Method | undefined>)[method])?.(...args)]),
    );
  return {
    driver: { name, ...forward((store) => store.driver, DRIVER_METHODS) } as unknown as Driver,
    atomic: { name, ...forward((store) => store.atomic, ATOMIC_METHODS) } as unknown as AtomicStore,
    bus: { name: busName, sharedAcrossInstances: true, ...forward((store) => store.bus, BUS_METHODS) } as unknown as MessageBus,
  };
}
