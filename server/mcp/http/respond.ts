/**
 * Writing responses: the result of a dispatched request as one JSON body — or as an SSE
 * stream when the handler sent notifications first. (The steps before dispatch refuse a request
 * with `sendError`, in error-reply.ts.)
 */
import { setResponseHeaders, setResponseStatus, type H3Event } from "h3";
import type { McpContext } from "../context";
import { dispatch, type Seal } from "../dispatcher";
import { useObserver } from "../features";
import { recordOutcome } from "../request-outcome";
import type { JsonRpcReply } from "./error-reply";

const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
} as const;

function writeHead(event: H3Event, status: number, headers?: Record<string, string>): void {
  setResponseStatus(event, status);
  setResponseHeaders(event, { "content-type": "application/json", ...headers });
}

/** Dispatches the validated request (`seal` seals a state a handler returns) and returns the response body: JSON text, or an SSE stream. */
export async function respond(event: H3Event, mcp: McpContext, seal: Seal): Promise<string | ReadableStream<Uint8Array>> {
  const reply = useObserver().within(event, () => dispatch(mcp, seal));
  // Whichever comes first: the final reply (→ one JSON body) or a notification (→ SSE).
  // A handler may notify before its first await, so the channel replays one already buffered.
  const first = await new Promise<JsonRpcReply | undefined>((resolve) => {
    mcp.channel.whenFirstNotification(() => resolve(undefined));
    void reply.then(resolve);
  });
  if (first) {
    recordOutcome(event, first.outcome);
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
    recordOutcome(event, final.outcome);
    mcp.channel.finish(final.body);
  });
  return stream;
}
