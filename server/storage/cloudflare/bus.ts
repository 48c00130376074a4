/**
 * The Cloudflare store's message transport: a rendezvous per channel, the Durable Object of this build named after the
 * channel. Publishing hands the message to that object; an isolate with subscribers to a channel holds one stream from it,
 * over which the object pushes each message. The object's side is `durableMethods` below, which the Worker entry adds to
 * the `$DurableObject` class (RPC only: no URL reaches them).
 */
import type { BusTransport } from "../../mcp/kit";
import type { DurableObjectNamespaceLike } from "./workers";

/** Longer than any message a bus sends (a bus refuses to publish one past 64 KB): a longer line is not one of ours. */
const MAX_LINE = 64 * 1024;

/** The RPC methods of the `$DurableObject` class the bus calls. */
export interface BusObject {
  busPublish(message: string): Promise<void>;
  /** A byte stream of the messages published from now on, one JSON text a line. */
  busListen(): Promise<ReadableStream<Uint8Array>>;
}

/** Hands each line `reader` reads to `deliver` until the stream ends or is cancelled. */
async function readLines(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  deliver: (line: string) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let pending = "";
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    pending += decoder.decode(read.value, { stream: true });
    const lines = pending.split("\n");
    pending = lines.pop()!;
    if (pending.length > MAX_LINE) pending = ""; // no message is that long: not one of ours
    for (const line of lines) if (line) deliver(line);
  }
}

export default function durableBus(client: unknown): BusTransport | undefined {
  // Without the Durable Object's binding there is nothing to carry messages between isolates.
  if (!client) return undefined;
  const namespace = client as DurableObjectNamespaceLike<BusObject>;
  const objectFor = (channel: string) => namespace.get(namespace.idFromName(`bus-${channel}`));
  return {
    publish: async (channel, message) => objectFor(channel).busPublish(message),
    async listen(channel, deliver, lost) {
      const reader = (await objectFor(channel).busListen()).getReader();
      let stopped = false;
      void readLines(reader, deliver)
        .catch(() => {})
        .then(() => stopped || lost()); // the object went away (a deploy, an eviction): its listeners start over
      return () => {
        stopped = true;
        void reader.cancel().catch(() => {});
      };
    },
  };
}

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

/** The object's side, added to `$DurableObject` by the Worker entry: one rendezvous per object (per channel). */
export const durableMethods = {
  busListen(this: object): ReadableStream<Uint8Array> {
    return of(this).listen();
  },
  busPublish(this: object, message: string): void {
    of(this).publish(message);
  },
};
