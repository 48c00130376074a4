/**
 * Messages between instances (buses: the message bus feature). Subscribers drop other principals' messages: knowing a channel's name (an
 * unguessable id, a URI) lets no one answer as another. At-most-once delivery, to those already subscribed: subscribe before acting.
 */

/** The principal of a message for every subscriber (a public resource changed): it starts with NUL, as no caller's can. */
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
