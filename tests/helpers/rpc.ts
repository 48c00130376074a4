/** Raw JSON-RPC over fetch, with the headers and `_meta` a 2026-07-28 request needs. */
const PROTOCOL_VERSION = "2026-07-28";

import { expect } from "vitest";
export type Json = Record<string, any>;

export function meta(capabilities: Json = {}, extra: Json = {}): Json {
  return {
    "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
    "io.modelcontextprotocol/clientInfo": { name: "raw-test", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    ...extra,
  };
}

let nextId = 1;

export interface RpcOptions {
  capabilities?: Json;
  headers?: Record<string, string>;
  /** Replace the standard headers entirely. */
  rawHeaders?: Record<string, string>;
  /** Send the params exactly as given, without adding `_meta`. */
  noMeta?: boolean;
  id?: string | number;
  metaExtra?: Json;
  signal?: AbortSignal;
}

export function standardHeaders(method: string, params: Json = {}): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL_VERSION,
    "mcp-method": method,
  };
  const name = {
    "tools/call": params.name,
    "prompts/get": params.name,
    "resources/read": params.uri,
    "tasks/get": params.taskId,
    "tasks/update": params.taskId,
    "tasks/cancel": params.taskId,
  }[method];
  if (name !== undefined) headers["mcp-name"] = String(name);
  return headers;
}

// with:cloudflare
/**
 * `wrangler dev` puts a proxy between the client and the Worker, and each of its two hops closes a keep-alive connection
 * idle for 5 s (cloudflare/workers-sdk#14641). A request sent at that moment is lost before the Worker sees it: on the
 * proxy's hop, the proxy answers 503 with this text; on the client's hop, the connection is reset, as undici keeps an
 * idle connection 4 s on a timer that a busy machine runs late. A burst sent after a 5 s back-off can meet a dozen of
 * each, and a request sent again can meet another.
 */
const WRANGLER_LOST_CONNECTION = "Your worker restarted mid-request.";
/** Times `post` sends a request lost on the way (above) again; the Worker's own answers are never sent again. */
const LOST_REQUEST_RETRIES = 3;

/** One try of `send`: what it answered, read whole, or undefined when the request was lost before any answer (above). */
async function tryThroughWrangler(send: () => Promise<Response>) {
  const response = await send().catch((error: unknown) => {
    const code = error instanceof TypeError ? (error.cause as { code?: unknown } | undefined)?.code : undefined;
    if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return undefined;
    throw error;
  });
  if (!response) return undefined;
  const text = await response.text();
  return response.status === 503 && text.startsWith(WRANGLER_LOST_CONNECTION) ? undefined : { response, text };
}
// end with:cloudflare

/** What `send` answered, read whole. */
async function exchange(send: () => Promise<Response>): Promise<{ response: Response; text: string }> {
  // with:cloudflare
  for (let attempt = 0; attempt < LOST_REQUEST_RETRIES; attempt++) {
    const answered = await tryThroughWrangler(send);
    if (answered) return answered;
  }
  // end with:cloudflare
  const response = await send();
  return { response, text: await response.text() };
}

/**
 * Calls the fixture tool `progress_steps` (100 steps, `delayMs` apart) with a progress token, and closes its stream as soon as
 * the first progress frame is in: a client going away mid-call.
 */
export async function closeProgressCall(
  url: string,
  id: string | number,
  options: { delayMs: number; headers?: Record<string, string> },
): Promise<void> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    headers: { ...standardHeaders("tools/call", { name: "progress_steps" }), ...options.headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name: "progress_steps",
        arguments: { steps: 100, delay_ms: options.delayMs },
        _meta: meta({}, { progressToken: 1 }),
      },
    }),
    signal: controller.signal,
  });
  await response.body!.getReader().read(); // the first progress frame
  controller.abort();
}

/** POSTs one request; `params._meta` is filled in unless the params already have one. */
export async function post(url: string, method: string, params: Json = {}, options: RpcOptions = {}) {
  const fullParams =
    options.noMeta || "_meta" in params ? params : { ...params, _meta: meta(options.capabilities, options.metaExtra) };
  const id = options.id ?? nextId++;
  const send = () =>
    fetch(url, {
      method: "POST",
      headers: options.rawHeaders ?? { ...standardHeaders(method, params), ...options.headers },
      body: JSON.stringify({ jsonrpc: "2.0", id, method, params: fullParams }),
      signal: options.signal,
    });
  const { response, text } = await exchange(send);
  const type = response.headers.get("content-type") ?? "";
  const messages = type.startsWith("text/event-stream") ? parseSse(text) : text ? [JSON.parse(text)] : [];
  const final = messages.find((message) => "result" in message || "error" in message);
  return { status: response.status, headers: response.headers, type, messages, body: final as Json, id };
}

export function parseSse(text: string): Json[] {
  return text
    .split("\n\n")
    .map((frame) =>
      frame
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n"),
    )
    .filter(Boolean)
    .map((data) => JSON.parse(data));
}

/** A 404 as the catch-all route answers it: JSON naming the path, nothing else. */
export async function expectJson404(response: Response, path: string) {
  expect(response.status).toBe(404);
  expect(response.headers.get("content-type")).toBe("application/json");
  const text = await response.text();
  expect(JSON.parse(text)).toEqual({ error: "Not found", path });
  expect(text).not.toMatch(/stack|<|at .*\(/);
}

/** Reads an SSE response as it arrives: `next()` is its next JSON-RPC message, or undefined once it ended; `close()` goes away. */
export function sseReader(response: Response): { next(): Promise<Json | undefined>; close(): Promise<void> } {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    async next() {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const [message] = parseSse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (message) return message;
          continue;
        }
        const read = await reader.read();
        if (read.done) return undefined;
        buffer += read.value;
      }
    },
    close: () => reader.cancel().catch(() => {}),
  };
}

/**
 * Opens a `subscriptions/listen` stream asking for `notifications`, through `send` (`fetch`, or an in-process
 * server's `stream`), and reads its first message (the acknowledgement, or the error).
 */
export async function openListen(
  send: (request: Request) => Promise<Response>,
  url: string,
  notifications: Json,
  headers: Record<string, string> = {},
  capabilities: Json = {},
) {
  const id = `listen-${crypto.randomUUID()}`;
  const body = {
    jsonrpc: "2.0",
    id,
    method: "subscriptions/listen",
    params: { notifications, _meta: meta(capabilities) },
  };
  const response = await send(
    new Request(url, {
      method: "POST",
      headers: { ...standardHeaders("subscriptions/listen"), ...headers },
      body: JSON.stringify(body),
    }),
  );
  // A refusal before the acknowledgement is one JSON body; otherwise the stream starts with the acknowledgement.
  if (response.headers.get("content-type")?.startsWith("application/json")) {
    const first = (await response.json()) as Json | undefined;
    return { id, response, stream: { next: async () => undefined, close: async () => {} }, first };
  }
  const stream = sseReader(response);
  return { id, response, stream, first: await stream.next() };
}

/** A `notifications/resources/updated` as a listen stream carries it. */
export const resourceUpdated = (subscriptionId: string, uri: string) => ({
  jsonrpc: "2.0",
  method: "notifications/resources/updated",
  params: { _meta: { "io.modelcontextprotocol/subscriptionId": subscriptionId }, uri },
});
