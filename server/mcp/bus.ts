/**
 * Messages between instances: an answer to a question a 2025-era client was asked on one instance's stream may
 * reach another instance; a resource changed through one instance must reach the streams open on all of them.
 * Each store brings its own bus (chosen with the store, see `drivers.node.ts`, `drivers.cloudflare.ts`):
 * memory (one process), Redis pub/sub, a Durable Object per channel on Workers, Upstash over its REST API.
 *
 * Channels are named by unguessable ids (or by a resource's URI, for updates); every message carries the
 * principal it belongs to, and a subscriber drops a message for anyone else, so knowing a channel's name is
 * not enough to answer in someone else's name. Delivery is at most once, to subscribers that were
 * subscribed when it was published: subscribe first, then do what makes the message come.
 */

/**
 * The principal of a message meant for every subscriber of its channel (a public resource changed). No caller
 * can be it: it starts with NUL, which neither an environment variable (static tokens) nor an issuer URL (OAuth) can.
 */
export const EVERY_PRINCIPAL = "\u0000every";

/** One subscription to a channel, for one principal. */
export interface BusSubscription {
  /** The next message for this subscription's principal, or undefined after `timeoutMs`, or once closed. */
  next(timeoutMs: number): Promise<unknown>;
  /** Stops listening; a pending `next` resolves undefined. Idempotent. */
  close(): void;
}

export interface MessageBus {
  /** What the log and the start-up message call it. */
  readonly name: string;
  /** True when every instance sharing the store hears the same messages (false for memory). */
  readonly sharedAcrossInstances: boolean;
  /** Publishes `data` (JSON) on `channel`, for `principal`'s subscribers only. */
  publish(channel: string, principal: string, data: unknown): Promise<void>;
  /** Subscribes to `channel` for `principal`; resolves once messages published from then on will be delivered. */
  subscribe(channel: string, principal: string): Promise<BusSubscription>;
}

let current: MessageBus | undefined;

/** Set once at start-up by the storage plugin. */
export function setMessageBus(bus: MessageBus | undefined): void {
  current = bus;
}

/** The bus of the configured store; undefined when it has none. */
export const useMessageBus = (): MessageBus | undefined => current;

/**
 * At start-up: throws, naming what to configure, when the store is shared across instances and its bus is not (a message
 * would reach only the instance that published it). A store with no bus at all is accepted: what needs one (resource
 * subscriptions, asking 2025-era clients) is then not offered, and no capability says it is.
 */
export function refuseUnsharedBus(selected: import("./atomic-store").SelectedStorage): void {
  if (!selected.sharedAcrossInstances || !selected.bus || selected.bus.sharedAcrossInstances) return;
  throw new Error(
    `${selected.name} is shared across instances but its message bus (${selected.bus.name}) is not, so a resource update would reach only the instance it was made on. Give the store a bus shared across instances (see server/storage/README.md).`,
  );
}
