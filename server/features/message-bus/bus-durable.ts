/**
 * The bus on Workers: a rendezvous per channel, the Durable Object of this build named after the channel
 * (`durable-object.ts`, called over RPC). Publishing hands the message to that object; an
 * isolate with subscribers to a channel holds one stream from it, over which the object pushes each message.
 */
import type { MessageBus } from "../../mcp/bus";
import { BUS_LIMITS, busOver } from "./bus-local";

/** The RPC methods of the `$DurableObject` class the bus calls. */
export interface BusObject {
  busPublish(message: string): Promise<void>;
  /** A byte stream of the messages published from now on, one JSON text a line. */
  busListen(): Promise<ReadableStream<Uint8Array>>;
}

export interface BusNamespaceLike {
  idFromName(name: string): unknown;
  get(id: unknown): BusObject;
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
    if (pending.length > BUS_LIMITS.messageBytes) pending = ""; // no message is that long: not one of ours
    for (const line of lines) if (line) deliver(line);
  }
}

export function durableBus(loaded: BusNamespaceLike | Promise<BusNamespaceLike>): MessageBus {
  const objectFor = async (channel: string) => {
    const namespace = await loaded;
    return namespace.get(namespace.idFromName(`bus-${channel}`));
  };
  return busOver("Durable Object ($DurableObject, one per channel)", {
    publish: async (channel, message) => (await objectFor(channel)).busPublish(message),
    async listen(channel, deliver, lost) {
      const reader = (await (await objectFor(channel)).busListen()).getReader();
      let stopped = false;
      void readLines(reader, deliver)
        .catch(() => {})
        .then(() => stopped || lost()); // the object went away (a deploy, an eviction): its listeners start over
      return () => {
        stopped = true;
        void reader.cancel().catch(() => {});
      };
    },
  });
}
