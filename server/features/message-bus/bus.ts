/**
 * The message bus over a store's transport (`server/storage/<store>/bus.ts`: how a published message travels — in this
 * process, Redis pub/sub, Upstash polled, a Durable Object's stream): this instance's subscriptions by channel, the envelope,
 * and the bounds. A channel has a listener of the transport while this instance has subscribers to it, so a channel nobody
 * here listens to costs nothing. A message reaches a subscription only when it is for that subscription's principal (or for
 * EVERY_PRINCIPAL).
 */
import {
  EVERY_PRINCIPAL,
  bounded,
  decodeEnvelope,
  limitExceeded,
  type BusSubscription,
  type BusSubscriptions,
  type BusTransport,
} from "../../mcp/kit";

export const BUS_LIMITS = {
  /** Subscriptions held by one instance, all channels together; one more is refused (each caller's share: the core's `bus.ts`). */
  subscriptionsPerInstance: 10_000,
  /** Messages kept for a subscription that has not asked for them yet; later ones are dropped (delivery is at most once). */
  queuedPerSubscription: 100,
  /** The longest one `next` waits, whatever it asks. */
  maxWaitMs: 15 * 60_000,
} as const;

class Subscription implements BusSubscription {
  private readonly queue: unknown[] = [];
  private waiting: ((data: unknown) => void) | undefined;
  closed = false;

  constructor(
    readonly principal: string,
    private readonly onClose: (subscription: Subscription) => void,
  ) {}

  push(data: unknown): void {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve(data);
    } else if (this.queue.length < BUS_LIMITS.queuedPerSubscription) this.queue.push(data);
  }

  next(timeoutMs: number): Promise<unknown> {
    if (this.queue.length) return Promise.resolve(this.queue.shift());
    if (this.closed) return Promise.resolve(undefined);
    this.waiting?.(undefined); // one pending `next` at a time: an earlier one gives up
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(undefined), Math.max(0, Math.min(timeoutMs, BUS_LIMITS.maxWaitMs)));
      const done = (data: unknown) => {
        clearTimeout(timer);
        if (this.waiting === done) this.waiting = undefined;
        resolve(data);
      };
      this.waiting = done;
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.waiting?.(undefined);
    this.onClose(this);
  }
}

interface Channel {
  readonly subscriptions: Set<Subscription>;
  /** The transport's listener: resolves once it listens, with its stop. */
  readonly listening: Promise<() => void>;
}

/** This instance's subscriptions over `transport`: they fan out what its listeners hear. */
export function subscriptionsOver(
  name: string,
  transport: BusTransport,
): BusSubscriptions & { readonly subscriberCount: number } {
  const channels = new Map<string, Channel>();
  let subscriberCount = 0;

  function deliver(channel: string, message: string): void {
    const envelope = decodeEnvelope(message);
    if (!envelope) return;
    for (const subscription of channels.get(channel)?.subscriptions ?? []) {
      if (envelope.principal === subscription.principal || envelope.principal === EVERY_PRINCIPAL)
        subscription.push(envelope.data);
    }
  }

  function release(name: string, channel: Channel, subscription: Subscription): void {
    if (channel.subscriptions.delete(subscription)) subscriberCount--;
    if (channel.subscriptions.size > 0 || channels.get(name) !== channel) return;
    channels.delete(name);
    void channel.listening.then((stop) => stop()).catch(() => {});
  }

  return {
    name,
    get subscriberCount() {
      return subscriberCount;
    },
    async subscribe(name, { principal }) {
      const limit = BUS_LIMITS.subscriptionsPerInstance;
      if (subscriberCount >= limit) {
        throw limitExceeded(`This server holds its most subscriptions (${limit}) at the moment: try again shortly`, {
          limit,
        });
      }
      let channel = channels.get(name);
      if (!channel) {
        const lost = () => {
          if (channels.get(name) !== created) return;
          for (const subscription of [...created.subscriptions]) subscription.close();
        };
        const created: Channel = {
          subscriptions: new Set(),
          listening: transport.listen(name, (message) => deliver(name, message), lost),
        };
        channel = created;
        channels.set(name, created);
      }
      const joined = channel;
      const subscription = new Subscription(principal, (closed) => release(name, joined, closed));
      joined.subscriptions.add(subscription);
      subscriberCount++;
      try {
        await bounded("subscribe", joined.listening); // as the storage guard bounds any operation, but closing what it gave up on
      } catch (error) {
        subscription.close();
        if (channels.get(name) === joined) channels.delete(name);
        throw error;
      }
      return subscription;
    },
  };
}
