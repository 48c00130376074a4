/**
 * Messages between instances: an answer to a question a 2025-era client was asked on one instance's stream may
 * reach another instance; a resource changed through one instance must reach the streams open on all of them.
 * The interface is the core's; the buses are the message bus feature's (`server/features/message-bus`, one per
 * store). Without a bus, what needs one (resource subscriptions, asking 2025-era clients) is not offered.
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
  /** Publishes `data` (JSON) on `channel`, for `principal`'s subscribers only. */
  publish(channel: string, principal: string, data: unknown): Promise<void>;
  /** Subscribes to `channel` for `principal`; resolves once messages published from then on will be delivered. */
  subscribe(channel: string, principal: string): Promise<BusSubscription>;
}

let current: MessageBus | undefined;

/** Set once at start-up by the message bus feature. */
export function setMessageBus(bus: MessageBus | undefined): void {
  current = bus;
}

/** The bus of the configured store; undefined when it has none. */
export const useMessageBus = (): MessageBus | undefined => current;
