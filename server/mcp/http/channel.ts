/**
 * The response channel of one request: what a handler sends before the response (progress, logs) and the final message.
 * Notifications sent before `respond` decides are buffered, then flushed first. Once the client is gone (or the stream
 * ended), every send is a no-op. The AbortSignal is made, and the client watched, only when asked for (`signal`, `closed`,
 * a stream): most requests never ask, and a listener on each is a measurable part of their work.
 */
import type { H3Event } from "h3";
import { logWarning } from "../log";
import { notificationMessage, type ProgressToken } from "../protocol";

const encoder = new TextEncoder();
const sseFrame = (json: string) => encoder.encode(`event: message\ndata: ${json}\n\n`);

/**
 * The headers of every SSE response.
 * @example
 * setResponseHeaders(event, SSE_HEADERS);
 * return channel.openStream();
 */
export const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
} as const;

/**
 * Watches a Node client for a `ResponseChannel`: `cancel` runs once it disconnects before the response is complete.
 * @example const channel = new ResponseChannel(disconnectWatcher(event)); // closed once the client goes away
 */
export function disconnectWatcher(event: H3Event): ((cancel: () => void) => void) | undefined {
  const response = event.node?.res;
  // A serverless platform's stand-in response has `once` too (and finishes before it closes); without it, a stream's own cancel ends it.
  if (typeof response?.once !== "function") return undefined;
  return (cancel) => {
    const ifUnfinished = () => void (response.writableFinished || cancel());
    if (response.destroyed) ifUnfinished();
    else response.once("close", ifUnfinished);
  };
}

/**
 * One request's way back to its client (`mcp.channel`): notifications before the response, then the final message,
 * in one JSON body or an SSE stream; every send is a no-op once the client has gone.
 * @example
 * const channel = new ResponseChannel(disconnectWatcher(event));
 * channel.send(notificationMessage("notifications/resources/updated", { uri }));
 */
export class ResponseChannel {
  private buffer: string[] = [];
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private done = false;
  private cancelled = false;
  private abort: AbortController | undefined;
  private lastProgress = Number.NEGATIVE_INFINITY;
  private onFirstNotification: (() => void) | undefined;

  /**
   * `watchClient(cancel)`, called once, on first need: calls `cancel` when the client has gone (at once if it already has).
   * `progressToken`: what the client asked progress to be sent under (none: progress is not sent).
   */
  constructor(
    private watchClient?: (cancel: () => void) => void,
    private readonly progressToken?: ProgressToken,
  ) {}

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

  /**
   * Reports progress as `notifications/progress`, when the client asked for it; values must increase, a non-increasing one
   * is dropped (and logged). A channel that reports progress elsewhere (a status a feature keeps) overrides it.
   */
  progress(progress: number, total?: number, message?: string): void {
    if (this.progressToken === undefined || this.closed) return;
    if (!(progress > this.lastProgress)) {
      logWarning(`dropped a non-increasing progress value (${progress})`);
      return;
    }
    this.lastProgress = progress;
    // `total` and `message` when given: JSON leaves out an undefined member.
    const params = { progressToken: this.progressToken, progress, total, message };
    this.send(notificationMessage("notifications/progress", params));
  }

  send(json: string): void {
    if (this.done) return;
    if (this.controller) this.controller.enqueue(sseFrame(json));
    else {
      this.buffer.push(json);
      if (this.buffer.length === 1) this.onFirstNotification?.();
    }
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
    this.controller?.enqueue(sseFrame(json));
    this.controller?.close();
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
