/**
 * Writing responses: the result of a dispatched request as one JSON body — or as an SSE
 * stream when the handler sent notifications first. (The steps before dispatch refuse a request
 * with `sendError`, in error-reply.ts.)
 */
import { setResponseHeaders, setResponseStatus, type H3Event } from "h3";
import type { McpContext } from "../context";
import { dispatch, type StateSteps } from "../dispatcher";
import { useObserver } from "../features";
import type { JsonRpcReply } from "./error-reply";

export const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
} as const;

function writeHead(event: H3Event, status: number, headers?: Record<string, string>): void {
  setResponseStatus(event, status);
  setResponseHeaders(event, { "content-type": "application/json", ...headers });
}

/** Dispatches the validated request (`steps` seal a state a handler returns, and open the server's own retries) and returns the response body: JSON text, or an SSE stream. */
export async function respond(
  event: H3Event,
  mcp: McpContext,
  steps: StateSteps,
): Promise<string | ReadableStream<Uint8Array>> {
  const reply = useObserver().within(event, () => dispatch(mcp, steps));
  // Whichever comes first: the final reply (→ one JSON body) or a notification (→ SSE).
  // A handler may notify before its first await, so the channel replays one already buffered.
  const first = await new Promise<JsonRpcReply | undefined>((resolve) => {
    mcp.channel.whenFirstNotification(() => resolve(undefined));
    void reply.then(resolve);
  });
  if (first) {
    event.context.mcpOutcome = first.outcome;
    mcp.channel.finish(first.body);
    writeHead(event, first.status);
    return first.body;
  }
  // Streaming commits to 200: a final error (say -32021 raised after a progress notification)
  // travels in the stream with its JSON-RPC code, since HTTP allows no second status.
  setResponseStatus(event, 200);
  setResponseHeaders(event, SSE_HEADERS);
  const stream = mcp.channel.openStream();
  void reply.then((final) => {
    event.context.mcpOutcome = final.outcome;
    mcp.channel.finish(final.body);
  });
  return stream;
}

/*
 * The response channel of one request: notifications sent before `respond` decides are buffered, then flushed first. Once
 * the client is gone (or the stream ended), every send is a no-op. The AbortSignal is made, and the client watched, only
 * when asked for (`signal`, `closed`, a stream): most requests never ask, and a listener on each cost 4 % of their work.
 */
const encoder = new TextEncoder();
const sseFrame = (json: string) => encoder.encode(`event: message\ndata: ${json}\n\n`);

export class ResponseChannel {
  private buffer: string[] = [];
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private done = false;
  private cancelled = false;
  private abort: AbortController | undefined;
  private lastProgress = -Infinity;
  private onFirstNotification: (() => void) | undefined;

  /** `watchClient(cancel)`, called once, on first need: calls `cancel` when the client has gone (at once if it already has). */
  constructor(private watchClient?: (cancel: () => void) => void) {}

  private watch(): void {
    const watchClient = this.watchClient;
    this.watchClient = undefined;
    watchClient?.(() => this.cancel());
  }

  get signal(): AbortSignal {
    this.watch();
    this.abort ??= new AbortController();
    if (this.cancelled && !this.abort.signal.aborted) this.abort.abort();
    return this.abort.signal;
  }

  /** True once the response ended or the client went away. */
  get closed(): boolean {
    this.watch();
    return this.done;
  }

  /** Progress must increase: returns false (and records nothing) for a value that does not. */
  acceptProgress(progress: number): boolean {
    if (!(progress > this.lastProgress)) return false;
    this.lastProgress = progress;
    return true;
  }

  send(json: string): void {
    if (this.done) return;
    if (this.controller) {
      this.controller.enqueue(sseFrame(json));
      return;
    }
    this.buffer.push(json);
    if (this.buffer.length === 1) this.onFirstNotification?.();
  }

  /** Calls `callback` on the first buffered notification, at once if one is already waiting. */
  whenFirstNotification(callback: () => void): void {
    if (this.buffer.length > 0) callback();
    else this.onFirstNotification = callback;
  }

  /** Switches to SSE: returns the stream, starting with whatever was buffered; closed at once if the client is already gone. */
  openStream(): ReadableStream<Uint8Array> {
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
        for (const json of this.buffer) controller.enqueue(sseFrame(json));
        this.buffer = [];
      },
      cancel: () => this.cancel(),
    });
    this.watch(); // after `start` took the controller, which a cancel closes
    return stream;
  }

  /** Ends the response: on a stream, writes the final message and closes it. Later sends are dropped. */
  finish(json: string): void {
    if (this.done) return;
    this.done = true;
    if (!this.controller) return;
    this.controller.enqueue(sseFrame(json));
    this.controller.close();
  }

  /** The client went away (or cancelled the request): nothing more is written, and a stream still open ends without a result. */
  cancel(): void {
    if (this.done) return;
    this.done = true;
    this.cancelled = true;
    this.abort?.abort();
    try {
      this.controller?.close();
    } catch {
      // The client already cancelled the stream itself.
    }
  }
}
