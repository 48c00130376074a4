/** Every store operation bounded and observed: a failure, or no answer in OPERATION_TIMEOUT_MS, is a `StorageUnavailableError` (503). */
import type { Driver } from "unstorage";
import { useObserver } from "./features";
import { StorageUnavailableError, type AtomicStore } from "./atomic-store";

const OPERATION_TIMEOUT_MS = 5000;

/** `work`, or a StorageUnavailableError once it failed or took OPERATION_TIMEOUT_MS. */
export function bounded<T>(operation: string, work: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const fail = (error: unknown) =>
      reject(error instanceof StorageUnavailableError ? error : new StorageUnavailableError(operation, error));
    const timer = setTimeout(
      () => fail(new Error(`no answer within ${OPERATION_TIMEOUT_MS} ms`)),
      OPERATION_TIMEOUT_MS,
    );
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        fail(error);
      },
    );
  });
}

/** Each operation bounded, and traced as a child span (`storage <operation>`) of the request or task round that made it. */
export function guarded<T extends { name?: string }>(target: T, passThrough: ReadonlySet<PropertyKey> = new Set()): T {
  const attributes = { "mcp.storage.name": target.name ?? "unknown" };
  // Made once per method, not per call.
  const wrappers = new WeakMap<object, (...args: unknown[]) => unknown>();
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== "function" || passThrough.has(property)) return value;
      let wrapper = wrappers.get(value);
      if (!wrapper) {
        const operation = String(property);
        const run = async (args: unknown[]): Promise<unknown> => value.apply(object, args);
        wrapper = (...args: unknown[]) =>
          useObserver().step(`storage ${operation}`, attributes, () => bounded(operation, run(args)));
        wrappers.set(value, wrapper);
      }
      return wrapper;
    },
  });
}

export const guardDriver = (driver: Driver): Driver => guarded(driver, new Set(["getInstance", "watch"]));
export const guardAtomicStore = (store: AtomicStore): AtomicStore => guarded(store);
