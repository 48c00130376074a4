/**
 * The bus's side of the Durable Object (one object per channel, see `bus-durable.ts`): the streams of the isolates
 * listening to the channel, and each published message pushed to all of them. A listener that falls BACKLOG_BYTES
 * behind loses messages instead of growing the object's memory. The default export is what the Worker entry adds to
 * the `$DurableObject` class (`server/cloudflare/entry.ts`): the RPC methods `bus-durable.ts` calls.
 */
const MAX_LISTENERS = 1000;
const BACKLOG_BYTES = 1024 * 1024;
const encoder = new TextEncoder();

export class BusRendezvous {
  private readonly listeners = new Set<ReadableByteStreamController>();

  /** The streams open on this channel. */
  get listening(): number {
    return this.listeners.size;
  }

  listen(): ReadableStream<Uint8Array> {
    if (this.listeners.size >= MAX_LISTENERS)
      throw new Error(`a bus channel is limited to ${MAX_LISTENERS} listening isolates`);
    let own: ReadableByteStreamController;
    return new ReadableStream({
      type: "bytes",
      start: (controller) => {
        own = controller;
        this.listeners.add(controller);
      },
      cancel: () => void this.listeners.delete(own),
    });
  }

  publish(message: string): void {
    const line = encoder.encode(`${message}\n`);
    for (const listener of this.listeners) {
      if ((listener.desiredSize ?? 0) < -BACKLOG_BYTES) continue;
      try {
        listener.enqueue(line.slice());
      } catch {
        this.listeners.delete(listener); // closed
      }
    }
  }
}

const rendezvous = new WeakMap<object, BusRendezvous>();
const of = (object: object): BusRendezvous =>
  rendezvous.get(object) ?? rendezvous.set(object, new BusRendezvous()).get(object)!;

export default {
  busListen(this: object): ReadableStream<Uint8Array> {
    return of(this).listen();
  },
  busPublish(this: object, message: string): void {
    of(this).publish(message);
  },
};
