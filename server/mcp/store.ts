/**
 * The shared store, as the core sees it: the ports a store's folder supplies (`server/storage/<store>/`: atomic operations,
 * a message transport, a rate counter), the store chosen at start-up, the message bus features build on its transport, and
 * how keys are made from what clients send, and every operation bounded and observed. No feature and no core module knows
 * which store it is.
 */
import { setDeadline } from "#mcp-platform";
import type { Driver } from "unstorage";
import { StorageUnavailableError } from "./errors";
import { runStep } from "./hooks";
import { base64UrlEncode, isPlainObject, utf8Encode } from "./internal/basics";
import { logWarning } from "./log";
import { takeShare } from "./shares";

/**
 * Operations atomic across instances (single-use claims, counters, shared records): unstorage has none, so each store
 * brings its own. Each operation answers at once (a store in this process's memory) or with a promise, which rejects when it
 * fails; `useAtomicStore` gives each answer as its store does: await it.
 */
export interface AtomicStore {
  /** What the log and the start-up message call it. */
  readonly name: string;
  /** The value of `key`, or null when it is absent or expired. */
  get(key: string): Promise<string | null> | string | null;
  /** Creates `key` unless it exists: true when this call created it (of any number racing, exactly one). */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> | boolean;
  /** Replaces the value of `key` only while it is still `expected`: true when this call replaced it. */
  compareAndSet(key: string, expected: string, next: string, ttlSeconds: number): Promise<boolean> | boolean;
  delete(key: string): Promise<void> | void;
}

/** How a store moves messages (JSON text) between instances: what a message bus is built on. */
export interface BusTransport {
  publish(channel: string, message: string): Promise<void>;
  /**
   * Starts hearing `channel`, handing each message to `deliver`; resolves once listening, with the function that stops.
   * Calls `lost` if it stops hearing on its own (its server restarted): the channel's subscriptions then close.
   */
  listen(channel: string, deliver: (message: string) => void, lost: () => void): Promise<() => void>;
}

/** One request counted against a limit of `limit` per `windowMs`, in one atomic step of the store (GCRA). */
export type RateCounter = (
  key: string,
  limit: number,
  windowMs: number,
) => Promise<{ readonly allowed: boolean; readonly retryAfterMs: number }>;

/** What a store's folder supplies besides its atomic operations (`bus.ts`, `counter.ts`); a store without one leaves it out. */
export interface StorePorts {
  readonly bus?: BusTransport;
  readonly counter?: RateCounter;
}

/** What a store's `select` opens: its driver, its atomic operations, and its own client for its port files. */
export interface OpenedStore {
  readonly name: string;
  /** The unstorage driver mounted at `mcp:`; undefined keeps Nitro's in-memory default. */
  readonly driver?: Driver;
  /** Its atomic operations; undefined when the store has none. */
  readonly atomic?: AtomicStore;
  /** Without `atomic`: what to configure to get them (for the start-up error). */
  readonly missingAtomic?: string;
  /** The store's own client (loaded lazily), which only its own port files use. */
  readonly client?: unknown;
}

/**
 * A store: the default export of `server/storage/<store>/<platform>.ts` (`node.ts` for Node and Vercel builds). Each
 * port file beside it (`bus.ts`, `counter.ts`) default-exports a function of the store's client that makes the port.
 * @example
 * export default defineStore({ order: 10, select: (env) => (env.MY_STORE_URL ? openMyStore(env.MY_STORE_URL) : undefined) });
 */
export interface StoreDefinition {
  /** Stores are tried in this order, lowest first: the first whose `select` opens is the server's. */
  readonly order: number;
  /** The store this environment configures (its variables, or a platform's bindings), or undefined. */
  select(env: Readonly<Record<string, unknown>>): OpenedStore | undefined;
}

/**
 * Declares a store, as the default export of its platform file (types it, nothing more).
 * @example export default defineStore({ order: 100, select: () => ({ name: "memory", atomic: memoryAtomicStore() }) });
 */
export const defineStore = (definition: StoreDefinition): StoreDefinition => definition;

/** A port file of a store's folder: the port, made from the store's own client; undefined when this client cannot give it. */
export type PortFactory<Port> = (client: unknown) => Port | undefined;

/** The store the server runs on (set by the storage plugin): what its `select` opened, guarded, and its ports. */
export interface SelectedStore extends OpenedStore {
  readonly ports: StorePorts;
}

let selected: SelectedStore | undefined;

/** Set once at start-up by the storage plugin. */
export function setStore(store: SelectedStore): void {
  selected = store;
}

/**
 * The store chosen at start-up (undefined before the storage plugin ran).
 * @example const counter = useStore()?.ports.counter; // undefined when the store counts nothing
 */
export const useStore = (): SelectedStore | undefined => selected;
/**
 * The chosen store's atomic operations, each bounded and observed; undefined when the store has none.
 * @example const claimed = await useAtomicStore()?.setIfAbsent(`claim:${id}`, "1", 600); // true for one caller only
 */
export const useAtomicStore = (): AtomicStore | undefined => selected?.atomic;

// ——— keys ———

/**
 * A storage key segment taken as it is: unstorage reads `:` and `/` as separators, drops what follows `?` or `#`, and folds
 * `..`, so a raw identifier from a client could alias another record or reach outside its prefix. Anything else goes in as
 * a digest (`digestKeySegment`).
 * @example if (!KEY_SEGMENT.test(id)) return null; // no such record: a raw id never reaches a key
 */
export const KEY_SEGMENT = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * A key segment for any text (a principal, a URI): its SHA-256, base64url. Distinct texts never share one.
 * @example const key = `watched:${await digestKeySegment(mcp.principal)}`;
 */
export async function digestKeySegment(text: string): Promise<string> {
  return base64UrlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Encode(text))));
}

// ——— the message bus ———

/**
 * The principal of a message for every subscriber (a public resource changed): it starts with NUL, as no caller's can.
 * @example
 * if (envelope.principal === subscription.principal || envelope.principal === EVERY_PRINCIPAL) deliver(envelope);
 */
export const EVERY_PRINCIPAL = "\u0000every";

/** One subscription to a channel, for one principal. */
export interface BusSubscription {
  /** The next message for this subscription's principal, or undefined after `timeoutMs`, or once closed. */
  next(timeoutMs: number): Promise<unknown>;
  /** Stops listening; a pending `next` resolves undefined. Idempotent. */
  close(): void;
}

/** Who a subscription is for: messages reach it only when published for its principal; it counts against its caller's share. */
export interface Subscriber {
  readonly principal: string;
  /** The key of the caller's fair shares (`McpContext.caller`). */
  readonly caller: string;
}

/**
 * Messages between instances. Subscribers drop other principals' messages: knowing a channel's name (an unguessable id, a
 * URI) lets no one answer as another. At-most-once delivery, to those already subscribed: subscribe before acting.
 */
export interface MessageBus extends BusSubscriptions {
  /** Publishes `data` (JSON) on `channel`, for `principal`'s subscribers only. */
  publish(channel: string, principal: string, data: unknown): Promise<void>;
}

/** This instance's side of a message bus: its subscriptions, fed by the store's transport (the feature that builds them). */
export interface BusSubscriptions {
  /** What the log and the start-up message call it. */
  readonly name: string;
  /**
   * Subscribes to `channel` for `subscriber`; resolves once messages published from then on will be delivered. Throws 429
   * (429) when the caller holds its share of subscriptions (`NITRO_MCP_CALLER_SUBSCRIPTIONS`), or the instance its bound.
   */
  subscribe(channel: string, subscriber: Subscriber): Promise<BusSubscription>;
}

/**
 * A message's JSON, envelope included; a larger one is refused when published.
 * @example
 * if (utf8Encode(JSON.stringify(answer)).byteLength > MAX_BUS_MESSAGE_BYTES / 2) return storeAndAnnounce(answer);
 */
export const MAX_BUS_MESSAGE_BYTES = 64 * 1024;

/** What travels on a channel: the data and whose it is. */
export interface BusEnvelope {
  readonly principal: string;
  readonly data: unknown;
}

/**
 * The message `data` travels as, for `principal`; throws past MAX_BUS_MESSAGE_BYTES.
 * @example await transport.publish(channel, encodeEnvelope(principal, { uri }));
 */
export function encodeEnvelope(principal: string, data: unknown): string {
  const message = JSON.stringify({ principal, data });
  if (utf8Encode(message).byteLength > MAX_BUS_MESSAGE_BYTES)
    throw new Error(`a bus message is limited to ${MAX_BUS_MESSAGE_BYTES} bytes`);
  return message;
}

/**
 * A message heard on a channel, read as untrusted: anything but an envelope is undefined (and dropped).
 * @example const envelope = decodeEnvelope(message); // then delivered only to its principal's subscribers
 */
export function decodeEnvelope(message: string): BusEnvelope | undefined {
  try {
    const parsed: unknown = JSON.parse(message);
    return isPlainObject(parsed) && typeof parsed.principal === "string"
      ? { principal: parsed.principal, data: parsed.data }
      : undefined;
  } catch {
    return undefined;
  }
}

let bus: MessageBus | undefined;

/**
 * Set once at start-up by the feature that keeps this instance's subscriptions: published messages travel on the store's
 * transport in the core's envelope, and each subscription takes one unit of its caller's share (`shares.ts`) until it closes.
 * @example if (transport) setMessageBus(subscriptionsOver(`${store.name}, as a message bus`, transport), transport);
 */
export function setMessageBus(subscriptions: BusSubscriptions, transport: BusTransport): void {
  bus = {
    name: subscriptions.name,
    publish: async (channel, principal, data) => transport.publish(channel, encodeEnvelope(principal, data)),
    async subscribe(channel, subscriber) {
      const release = takeShare("subscriptions", subscriber.caller);
      try {
        const subscription = await subscriptions.subscribe(channel, subscriber);
        return {
          next: (timeoutMs) => subscription.next(timeoutMs),
          close() {
            release();
            subscription.close();
          },
        };
      } catch (error) {
        release();
        throw error;
      }
    },
  };
}

/**
 * The message bus; undefined when the store has no transport (or no feature keeps subscriptions).
 * @example const bus = useMessageBus(); // then: if (!bus) offer nothing that needs one
 */
export const useMessageBus = (): MessageBus | undefined => bus;

/**
 * The bus channel of a resource's updates.
 * @example
 * const updates = await bus.subscribe(await resourceChannel(uri), { principal: mcp.principal, caller: mcp.caller });
 */
export const resourceChannel = async (uri: string): Promise<string> => `resource-${await digestKeySegment(uri)}`;

/**
 * Tells every listener for `uri` (its principal's, or everyone's) that the resource changed.
 * Never throws: the change itself is done, and an update that cannot be sent is lost (and logged): at most once.
 * @example await publishResourceChange(`note://${id}`); // once the change is stored
 */
export async function publishResourceChange(uri: string, principal: string = EVERY_PRINCIPAL): Promise<void> {
  try {
    await bus?.publish(await resourceChannel(uri), principal, { uri });
  } catch (error) {
    logWarning(`resource update not sent (${error instanceof Error ? error.message : String(error)})`);
  }
}

// ——— every operation bounded and observed: a rejection, or no answer in OPERATION_TIMEOUT_MS, is a StorageUnavailableError
// (503); an operation that throws at once is a bug in the store or its configuration, and reaches the request as one (500) ———

const OPERATION_TIMEOUT_MS = 5000;

/**
 * `work`, or a StorageUnavailableError once it failed or took OPERATION_TIMEOUT_MS. An answer given at once (a store in this
 * process's memory) cannot hang: it stays as it is, no deadline, no promise (a request that claims a state waits for nothing).
 * @example await bounded("subscribe", listening); // a transport that never answers is a 503, not a hang
 */
export function bounded<T>(operation: string, work: PromiseLike<T> | T): T | Promise<T> {
  // A thenable, not only a Promise: a Durable Object's answer is one of its own.
  if (typeof (work as Partial<PromiseLike<T>> | null)?.then !== "function") return work as T;
  return new Promise<T>((resolve, reject) => {
    const fail = (error: unknown) =>
      reject(error instanceof StorageUnavailableError ? error : new StorageUnavailableError(operation, error));
    const cancel = setDeadline(OPERATION_TIMEOUT_MS, () =>
      fail(new Error(`no answer within ${OPERATION_TIMEOUT_MS} ms`)),
    );
    // `then`, not `finally`, which costs each operation two more promises and their microtasks.
    Promise.resolve(work).then(resolve, fail).then(cancel);
  });
}

/**
 * Each operation bounded, and traced as a child span (`storage <operation>`) of the request (or background round) that
 * made it.
 * @example
 * const bus = guarded({ name: opened.name, ...transport }, new Set(["listen"])); // listen: bounded by the bus itself
 */
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
        wrapper = (...args: unknown[]) =>
          runStep(`storage ${operation}`, attributes, () => bounded(operation, value.apply(object, args)));
        wrappers.set(value, wrapper);
      }
      return wrapper;
    },
  });
}
