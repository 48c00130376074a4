/**
 * 2025-era clients for the tests of asking them (server/features/legacy/ask.ts): the official 1.x client with handlers,
 * and a raw one over fetch for what the official client will not do: answering with ids it did not get, answering
 * twice, on another session, after the deadline. A raw call's SSE response is read as it arrives, so a test can answer
 * the server's questions while the call is still open.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { sseReader, type Json } from "./rpc";

/** Every capability a 2025-11-25 client can be asked through. */
export const ALL_CAPABILITIES = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

/**
 * The official 1.x client on `url`, declaring `capabilities`, with a handler for each: elicitation answered by `answer`
 * (each question's params kept in `asked`), sampling with "hello", roots with one root.
 */
export async function officialLegacyClient(
  url: string,
  answer: (params: Record<string, any>) => ElicitResult,
  capabilities: Record<string, object> = ALL_CAPABILITIES,
) {
  const client = new Client({ name: "legacy-ask-test", version: "1.0.0" }, { capabilities });
  const asked: Record<string, any>[] = [];
  if (capabilities.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return answer(request.params);
    });
  }
  if (capabilities.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "hello" },
      model: "test-model",
    }));
  }
  if (capabilities.roots)
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: "file:///work/project", name: "project" }],
    }));
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport, asked };
}

/** A form answer filling the question's first field from `values`. */
export const fillFirstField =
  (values: Record<string, unknown>) =>
  (params: Record<string, any>): ElicitResult => {
    const field = Object.keys(params.requestedSchema.properties)[0]!;
    return { action: "accept", content: { [field]: values[field] as string } };
  };

export const LEGACY_VERSION = "2025-11-25";

let nextId = 1;

/** Extra headers on a request; `undefined` removes one the helper would send (`"mcp-protocol-version": undefined`). */
export type ExtraHeaders = Readonly<Record<string, string | undefined>>;

function headers(session: string | undefined, extra: ExtraHeaders = {}): Record<string, string> {
  const all: Record<string, string | undefined> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": LEGACY_VERSION,
    ...(session === undefined ? {} : { "mcp-session-id": session }),
    ...extra,
  };
  return Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * Where the requests go: a URL (a running server, over HTTP), or an in-process server's `stream`, whose responses are
 * read as they are written, as over HTTP.
 */
export type LegacyTarget = string | { readonly url: string; fetch(request: Request): Promise<Response> };

const send = (target: LegacyTarget, init: RequestInit): Promise<Response> =>
  typeof target === "string" ? fetch(target, init) : target.fetch(new Request(target.url, init));

/** `initialize` with these capabilities (at `version`): the session id the server minted (undefined when none). */
export async function initializeLegacy(
  url: LegacyTarget,
  capabilities: Json,
  extra: ExtraHeaders = {},
  version = LEGACY_VERSION,
): Promise<string | undefined> {
  const response = await send(url, {
    method: "POST",
    headers: headers(undefined, extra),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: nextId++,
      method: "initialize",
      params: { protocolVersion: version, capabilities, clientInfo: { name: "raw-legacy", version: "1.0.0" } },
    }),
  });
  if (response.status !== 200) throw new Error(`initialize answered ${response.status}`);
  await response.text();
  return response.headers.get("mcp-session-id") ?? undefined;
}

/** POSTs any JSON-RPC message on a session; the status and the body, parsed when there is one. */
export async function postLegacy(
  url: LegacyTarget,
  session: string | undefined,
  message: Json,
  extra: ExtraHeaders = {},
) {
  const response = await send(url, {
    method: "POST",
    headers: headers(session, extra),
    body: JSON.stringify({ jsonrpc: "2.0", ...message }),
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get("content-type") ?? "",
    body: text ? (JSON.parse(text.replace(/^event: message\ndata: /, "")) as Json) : undefined,
    text,
  };
}

/** Answers one of the server's questions (a JSON-RPC response). */
export const answerLegacy = (
  url: LegacyTarget,
  session: string | undefined,
  id: unknown,
  result: Json,
  extra: ExtraHeaders = {},
) => postLegacy(url, session, { id, result }, extra);

/** A call whose response is read message by message: the server's questions, then the final response. */
export interface OpenCall {
  readonly id: number;
  /** The next message of the stream (a question, a notification, the final response), or undefined once it ended. */
  next(): Promise<Json | undefined>;
  /** Reads on to the final response (undefined when the stream ended without one). */
  final(): Promise<Json | undefined>;
}

/** `tools/call` of `name` on a session, read as it comes (see {@link openLegacyRequest}). */
export const openLegacyCall = (
  url: LegacyTarget,
  session: string | undefined,
  name: string,
  args: Json,
  extra: ExtraHeaders = {},
): Promise<OpenCall> => openLegacyRequest(url, session, "tools/call", { name, arguments: args }, extra);

/** Any request on a session (`resources/read`, `prompts/get`…), its response read message by message as it arrives. */
export async function openLegacyRequest(
  url: LegacyTarget,
  session: string | undefined,
  method: string,
  params: Json,
  extra: ExtraHeaders = {},
): Promise<OpenCall> {
  const id = nextId++;
  const response = await send(url, {
    method: "POST",
    headers: headers(session, extra),
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
  });
  if (!response.body) throw new Error(`${method} answered ${response.status} without a body`);
  const isStream = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let ended = false;
  const next = async (): Promise<Json | undefined> => {
    for (;;) {
      if (!isStream && ended) return undefined;
      const frameEnd = buffer.indexOf("\n\n");
      if (isStream && frameEnd >= 0) {
        const frame = buffer.slice(0, frameEnd);
        buffer = buffer.slice(frameEnd + 2);
        const data = frame
          .split("\n")
          .filter((line) => line.startsWith("data: "))
          .map((line) => line.slice(6))
          .join("\n");
        if (data) return JSON.parse(data) as Json;
        continue;
      }
      if (ended) return undefined;
      const { value, done } = await reader.read();
      if (done) {
        ended = true;
        if (!isStream) return buffer ? (JSON.parse(buffer) as Json) : undefined;
        continue;
      }
      buffer += value;
    }
  };
  const final = async () => {
    for (let message = await next(); message; message = await next())
      if ("result" in message || "error" in message) return message;
    return undefined;
  };
  return { id, next, final };
}

/** A sampling answer carrying an image of about 100 KB (its base64), as a model may return: over the bus's 64 KB message bound. */
export const IMAGE_SAMPLING_ANSWER = {
  role: "assistant",
  content: { type: "image", mimeType: "image/png", data: Buffer.alloc(75_000, 7).toString("base64") },
  model: "test-model",
};
/** The roots answer the tests give: one root. */
export const ROOTS_ANSWER = { roots: [{ uri: "file:///work/project", name: "project" }] };

/** The two questions of the one round of the fixture `ask_model_and_roots`, by method (their order on the stream is the server's). */
export async function samplingAndRootsQuestions(call: OpenCall): Promise<{ sampling: Json; roots: Json }> {
  const asked = [(await call.next())!, (await call.next())!];
  const by = (method: string) => {
    const question = asked.find((message) => message.method === method);
    if (!question) throw new Error(`no ${method} among ${JSON.stringify(asked).slice(0, 300)}`);
    return question;
  };
  return { sampling: by("sampling/createMessage"), roots: by("roots/list") };
}

/** GET /mcp on a session (the 2025-11-25 stream of resource updates): the response, and its messages as they arrive when it is one. */
export async function openLegacyStream(
  url: LegacyTarget,
  session: string | undefined,
  extra: Record<string, string> = {},
) {
  const response = await send(url, {
    headers: {
      accept: "text/event-stream",
      "mcp-protocol-version": LEGACY_VERSION,
      ...(session === undefined ? {} : { "mcp-session-id": session }),
      ...extra,
    },
  });
  return {
    response,
    stream: response.headers.get("content-type")?.startsWith("text/event-stream") ? sseReader(response) : undefined,
  };
}

/** The URIs of the `notifications/resources/updated` a client heard, in order, and a wait for the next one of a URI. */
export function heardUpdates() {
  const uris: string[] = [];
  const waiting = new Set<() => void>();
  return {
    uris,
    add(uri: string) {
      uris.push(uri);
      for (const wake of waiting) wake();
    },
    /** True once `uri` is among those heard after the first `from`; false after `timeoutMs`. */
    waitFor(uri: string, from: number, timeoutMs: number): Promise<boolean> {
      return new Promise((resolve) => {
        const check = () => {
          if (!uris.slice(from).includes(uri)) return;
          done(true);
        };
        const timer = setTimeout(() => done(false), timeoutMs);
        const done = (heard: boolean) => {
          clearTimeout(timer);
          waiting.delete(check);
          resolve(heard);
        };
        waiting.add(check);
        check();
      });
    },
  };
}

/**
 * Changes `uri` (through `change`) until its update is heard. A subscription reaches the GET stream over the bus a
 * moment after `resources/subscribe` is answered, so a first change may come before the stream follows it: each
 * attempt waits a bounded time, and only the total number of attempts can fail the test.
 */
export async function changeUntilHeard(
  heard: ReturnType<typeof heardUpdates>,
  uri: string,
  change: () => Promise<unknown>,
): Promise<void> {
  for (let attempt = 0; attempt < 60; attempt++) {
    const from = heard.uris.length;
    await change();
    if (await heard.waitFor(uri, from, 500)) return;
  }
  throw new Error(`no update of ${uri} was heard`);
}
