/**
 * The bus on Workers: a rendezvous per channel, the Durable Object of this build named after the channel
 * (`server/cloudflare/bus-rendezvous.ts`, called over RPC). Publishing hands the message to that object; an
 * isolate with subscribers to a channel holds one stream from it, over which the object pushes each message.
 */
import type { MessageBus } from "../mcp/bus";
import { busOver } from "./bus-local";

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

/** Hands each line of `stream` to `deliver` until the stream ends or is cancelled. */
async function readLines(stream: ReadableStream<Uint8Array>, deliver: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) if (line) deliver(line);
  }
}

export function durableBus(namespace: BusNamespaceLike): MessageBus {
  const objectFor = (channel: string) => namespace.get(namespace.idFromName(`bus-${channel}`));
  return busOver("Durable Object ($DurableObject, one per channel)", true, {
    publish: (channel, message) => objectFor(channel).busPublish(message),
    async listen(channel, deliver) {
      const stream = await objectFor(channel).busListen();
      const reading = readLines(stream, deliver).catch(() => {});
      return () => void stream.cancel().catch(() => {}).then(() => reading);
    },
  });
}
