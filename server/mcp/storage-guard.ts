/** Every store operation bounded and observed: a failure, or no answer in OPERATION_TIMEOUT_MS, is a `StorageUnavailableError` (503). */
import type { Driver } from "unstorage";
import { useObserver } from "./features";
import { StorageUnavailableError, type AtomicStore } from "./atomic-store";

const OPERATION_TIMEOUT_MS = 5000;

/** `work`, or a StorageUnavailableError once it failed or took OPERATION_TIMEOUT_MS. */
export function bounded<T>(operation: string, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${OPERATION_TIMEOUT_MS} ms`)), OPERATION_TIMEOUT_MS);
  });
  return Promise.race([work, timeout])
    .catch((error: unknown) => {
      throw error instanceof StorageUnavailableError ? error : new StorageUnavailableError(operation, error);
    })
    .finally(() => clearTimeout(timer));
}

/** Each operation bounded, and traced as a child span (`storage <operation>`) of the request or task round that made it. */
export function guarded<T extends { name?: string }>(target: T, passThrough: ReadonlySet<PropertyKey> = new Set()): T {
  const attributes = { "mcp.storage.name": target.name ?? "unknown" };
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== "function" || passThrough.has(property)) return value;
      const operation = String(property);
      return (...args: unknown[]) => useObserver().step(`storage ${operation}`, attributes, () => bounded(operation, (async () => value.apply(object, args))()));
    },
  });
}

export const guardDriver = (driver: Driver): Driver => guarded(driver, new Set(["getInstance", "watch"]));
export const guardAtomicStore = (store: AtomicStore): AtomicStore => guarded(store);
