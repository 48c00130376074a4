/** Operations atomic across instances (single-use claims, tasks, rate limits): unstorage has none, so each store brings its own. */

export interface AtomicStore {
  /** What the log and the start-up message call it. */
  readonly name: string;
  /** The value of `key`, or null when it is absent or expired. */
  get(key: string): Promise<string | null>;
  /** Creates `key` unless it exists: true when this call created it (of any number racing, exactly one). */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Replaces the value of `key` only while it is still `expected`: true when this call replaced it. */
  compareAndSet(key: string, expected: string, next: string, ttlSeconds: number): Promise<boolean>;
  delete(key: string): Promise<void>;
}

/** What `selectStorage` (in `drivers.node.ts` or `drivers.cloudflare.ts`) chose from the environment. */
export interface SelectedStorage {
  readonly name: string;
  /** The unstorage driver mounted at `mcp:`; undefined keeps Nitro's in-memory default. */
  readonly driver?: import("unstorage").Driver;
  /** Its atomic operations; undefined when the store has none. */
  readonly atomic?: AtomicStore;
  /** Its own client, for features needing more (message bus, rate limit), with its atomic keys' prefix; absent for memory, files. */
  readonly client?: {
    readonly kind: "redis" | "upstash" | "durable";
    readonly loaded: Promise<unknown>;
    readonly keyPrefix?: string;
  };
  /** True when several instances may share this store (Redis, Upstash, Workers KV). */
  readonly sharedAcrossInstances?: boolean;
  /** Without `atomic`: what to configure to get them (for the start-up error). */
  readonly missingAtomic?: string;
}

/** The store could not be reached or failed: answered -32603 "storage unavailable" (HTTP 503), the reason logged. */
export class StorageUnavailableError extends Error {
  override name = "StorageUnavailableError";
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`storage unavailable (${operation}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

let selected: SelectedStorage | undefined;
let current: AtomicStore | undefined;

/** Set once at start-up by the storage plugin: the store chosen, and its atomic operations as requests use them (guarded). */
export function setStorage(store: SelectedStorage, atomic: AtomicStore | undefined): void {
  selected = store;
  current = atomic;
}

export const useAtomicStore = (): AtomicStore | undefined => current;
/** The store chosen at start-up (for the plugins of features that need its client). */
export const useSelectedStorage = (): SelectedStorage | undefined => selected;
