/**
 * Writing responses: JSON-RPC errors for rejected requests, and the result of a
 * dispatched request as one JSON body — or as an SSE stream when the handler sent
 * notifications first.
 */
import { setResponseHeaders, setResponseStatus, type H3Event } from "h3";
import type { McpContext } from "../context";
import { dispatch, errorReply, type JsonRpcReply } from "../dispatcher";
import type { RequestId } from "../protocol";

const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
} as const;

function sendReply(event: H3Event, reply: JsonRpcReply, headers?: Record<string, string>): string {
  setResponseStatus(event, reply.status);
  setResponseHeaders(event, { "content-type": "application/json", ...headers });
  return reply.body;
}

export const sendError = (event: H3Event, id: RequestId | undefined, error: unknown, headers?: Record<string, string>) =>
  sendReply(event, errorReply(id, error), headers);

export async function respondToRequest(event: H3Event, mcp: McpContext): Promise<string | ReadableStream<Uint8Array>> {
  const reply = dispatch(mcp);
  // Whichever comes first: the final reply (→ one JSON body) or a notification (→ SSE).
  // A handler may notify before its first await, so the channel replays one already buffered.
  const first = await new Promise<JsonRpcReply | undefined>((resolve) => {
    mcp.channel.whenFirstNotification(() => resolve(undefined));
    void reply.then(resolve);
  });
  if (first) {
    mcp.channel.finish(first.body);
    return sendReply(event, first);
  }
  // Streaming commits to 200: a final error (say -32021 raised after a progress notification)
  // travels in the stream with its JSON-RPC code, since HTTP allows no second status.
  setResponseStatus(event, 200);
  setResponseHeaders(event, SSE_HEADERS);
  const stream = mcp.channel.openStream();
  void reply.then((final) => mcp.channel.finish(final.body));
  return stream;
}
