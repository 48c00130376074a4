/**
 * Messages between instances (buses: the message bus feature). Subscribers drop other principals' messages: knowing a channel's name (an
 * unguessable id, a URI) lets no one answer as another. At-most-once delivery, to those already subscribed: subscribe before acting.
 */
import { takeShare } from "./shares";

/** The principal of a message for every subscriber (a public resource changed): it starts with NUL, as no caller's can. */
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

export interface MessageBus {
  /** What the log and the start-up message call it. */
  readonly name: string;
  /** Publishes `data` (JSON) on `channel`, for `principal`'s subscribers only. */
  publish(channel: string, principal: string, data: unknown): Promise<void>;
  /**
   * Subscribes to `channel` for `subscriber`; resolves once messages published from then on will be delivered. Throws -32029
   * (429) when the caller holds its share of subscriptions (`NITRO_MCP_CALLER_SUBSCRIPTIONS`), or the instance its bound.
   */
  subscribe(channel: string, subscriber: Subscriber): Promise<BusSubscription>;
}

let current: MessageBus | undefined;

/** `bus`, each subscription taking one unit of its caller's share (`shares.ts`) until it closes. */
function sharedFairly(bus: MessageBus): MessageBus {
  return {
    name: bus.name,
    publish: (channel, principal, data) => bus.publish(channel, principal, data),
    async subscribe(channel, subscriber) {
      const release = takeShare("subscriptions", subscriber.caller);
      try {
        const subscription = await bus.subscribe(channel, subscriber);
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

/** Set once at start-up by the message bus feature. */
export function setMessageBus(bus: MessageBus | undefined): void {
  current = bus && sharedFairly(bus);
}

/** The bus of the configured store; undefined when it has none. */
export const useMessageBus = (): MessageBus | undefined => current;
