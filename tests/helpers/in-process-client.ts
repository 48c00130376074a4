/**
 * The client part of the in-process harness (`in-process.ts` is the module tests import): a client that speaks
 * 2026-07-28 with the capabilities a test declares (or a 2025 version), answers the server's questions the way
 * the test says, round after round, and hands back each result typed as the official SDK types it.
 */
import type {
  CallToolResult,
  GetPromptResult,
  InputRequiredResult,
  ReadResourceResult,
  Result,
  ResultTypeMap,
} from "@modelcontextprotocol/client";
import type { Exchange, TestServer } from "./in-process-server";
import { meta, standardHeaders, type Json } from "./rpc";

type Era = "2026-07-28" | "2025-11-25" | "2025-06-18" | "2025-03-26";

/** An answer: the response's wire shape (`{ action: "accept", content }`, a sampling result, `{ roots }`…), or a function of the question. */
export type Answer = Json | "decline" | "cancel" | ((request: Json, key: string) => Json | Promise<Json>);
/** Answers by input request key, or one rule for every question. */
export type Answers =
  | Readonly<Record<string, Answer>>
  | "decline"
  | "cancel"
  | ((request: Json, key: string) => Json | Promise<Json>);

export interface TestClientOptions {
  /** The protocol revision to speak: 2026-07-28 (the default, `_meta` on every request) or a 2025 version (no envelope). */
  era?: Era;
  /** 2026-07-28: the client capabilities declared on every request, e.g. `{ elicitation: { form: {} } }`. */
  capabilities?: Json;
  /** Headers on every request, e.g. `{ authorization: "Bearer …" }`. */
  headers?: Readonly<Record<string, string>>;
  /** Answers to the server's questions, for every call (a call's own `answers` come first). */
  answers?: Answers;
}

export interface RequestOptions {
  /** Extra headers (`Mcp-Param-*`, `Origin`…); `undefined` removes one the client would send. */
  headers?: Readonly<Record<string, string | undefined>>;
  /** Extra `_meta` entries (`progressToken`, `io.modelcontextprotocol/logLevel`…). */
  meta?: Json;
  /** 2026-07-28: the capabilities declared on this request instead of the client's. */
  capabilities?: Json;
  /** The JSON-RPC id (default: a counter). */
  id?: string | number;
}

export interface CallOptions extends RequestOptions {
  /** Answers to this call's questions; a key without one fails the test, naming the key. */
  answers?: Answers;
  /** Return the first `input_required` result instead of answering it (to look at its `inputRequests` and `requestState`). */
  stopAtInputRequired?: boolean;
  /** Rounds before giving up (default 10). */
  maxRounds?: number;
}

/** A JSON-RPC error response, thrown by the client's calls: its `code`, `data` and HTTP `status`. */
export class TestRpcError extends Error {
  override name = "TestRpcError";
  readonly code: number;
  readonly data: unknown;
  readonly status: number;
  constructor(readonly exchange: Exchange) {
    super(`${exchange.body.error.message} (${exchange.body.error.code}, HTTP ${exchange.status})`);
    this.code = exchange.body.error.code;
    this.data = exchange.body.error.data;
    this.status = exchange.status;
  }
}

/**
 * The result of `method`, as the SDK types what a requester receives (`ResultTypeMap`), or the SDK's base `Result` for
 * a method it has no type for (the tasks extension's). A complete 2026-07-28 result also carries `resultType: "complete"`
 * on the wire, which the SDK's types leave out.
 */
export type ResultOf<Method extends string> = Method extends keyof ResultTypeMap ? ResultTypeMap[Method] : Result;

/** Options that stop at the first question: the call returns that round, or the final result when nothing was asked. */
export type StopOptions = CallOptions & { stopAtInputRequired: true };
/** Options that answer every question: the call returns the final result. */
export type AnswerOptions = CallOptions & { stopAtInputRequired?: false };

export interface TestClient {
  readonly server: TestServer;
  /**
   * A result: sends the request, answers every `input_required` round (unless told to stop at the
   * first) and returns the final result. A JSON-RPC error is thrown as a {@link TestRpcError}.
   * Stopped at a question, the result is the SDK's `InputRequiredResult` or the final one: tell them
   * apart with the SDK's `isInputRequiredResult` (tests/README.md, "In-process").
   */
  call<Method extends string>(
    method: Method,
    params: Json | undefined,
    options: StopOptions,
  ): Promise<ResultOf<Method> | InputRequiredResult>;
  call<Method extends string>(method: Method, params?: Json, options?: AnswerOptions): Promise<ResultOf<Method>>;
  /** `tools/call`, as {@link TestClient.call}, with the `Mcp-Param-*` headers its `x-mcp-header` parameters need (read from tools/list). */
  callTool(name: string, args: Json | undefined, options: StopOptions): Promise<CallToolResult | InputRequiredResult>;
  callTool(name: string, args?: Json, options?: AnswerOptions): Promise<CallToolResult>;
  /** `prompts/get`, as {@link TestClient.call}. */
  getPrompt(
    name: string,
    args: Readonly<Record<string, string>> | undefined,
    options: StopOptions,
  ): Promise<GetPromptResult | InputRequiredResult>;
  getPrompt(name: string, args?: Readonly<Record<string, string>>, options?: AnswerOptions): Promise<GetPromptResult>;
  /** `resources/read`, as {@link TestClient.call}. */
  readResource(uri: string, options: StopOptions): Promise<ReadResourceResult | InputRequiredResult>;
  readResource(uri: string, options?: AnswerOptions): Promise<ReadResourceResult>;
  /** One exchange with this client's envelope (`_meta`, mirrored headers), whatever the answer: for protocol tests. */
  request(method: string, params?: Json, options?: RequestOptions): Promise<Exchange>;
}

const MODERN: Era = "2026-07-28";

let nextId = 1;

/** A value as an `Mcp-Param-*` header carries it: as is when it is visible ASCII, else in the `=?base64?…?=` sentinel. */
function headerValue(value: string | number | boolean): string {
  const text = String(value);
  return /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(text) && !text.startsWith("=?base64?")
    ? text
    : `=?base64?${Buffer.from(text, "utf8").toString("base64")}?=`;
}

/** The `Mcp-Param-*` headers a 2026-07-28 client sends with `args`: one per `x-mcp-header` property present in them. */
function paramHeaders(schema: Json | undefined, args: Json | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, property] of Object.entries((schema?.properties ?? {}) as Json)) {
    const value = args?.[name];
    if (value === undefined || value === null) continue;
    if (typeof property["x-mcp-header"] === "string" && typeof value !== "object")
      headers[`mcp-param-${property["x-mcp-header"].toLowerCase()}`] = headerValue(value);
    else if (typeof value === "object") Object.assign(headers, paramHeaders(property, value));
  }
  return headers;
}

async function answerOf(answers: Answers | undefined, request: Json, key: string): Promise<Json | undefined> {
  const rule = typeof answers === "object" ? answers[key] : answers;
  if (rule === undefined) return undefined;
  if (rule === "decline" || rule === "cancel") return { action: rule };
  return typeof rule === "function" ? rule(request, key) : rule;
}

/** A client of `server` (what `TestServer.connect` returns). */
export function createClient(server: TestServer, options: TestClientOptions = {}): TestClient {
  const era = options.era ?? MODERN;
  let toolSchemas: Promise<Map<string, Json>> | undefined;
  /** The tools' input schemas, read once from tools/list (every page), as a client learns its `x-mcp-header` parameters. */
  const inputSchemas = () =>
    (toolSchemas ??= (async () => {
      const schemas = new Map<string, Json>();
      let cursor: string | undefined;
      do {
        const result = (await request("tools/list", cursor ? { cursor } : {})).body?.result;
        for (const tool of result?.tools ?? []) schemas.set(tool.name, tool.inputSchema);
        cursor = result?.nextCursor;
      } while (cursor);
      return schemas;
    })());

  const request: TestClient["request"] = async (method, params = {}, requestOptions = {}) => {
    const modern = era === MODERN;
    const envelope = modern
      ? meta(requestOptions.capabilities ?? options.capabilities, requestOptions.meta)
      : requestOptions.meta;
    const fullParams = envelope && !("_meta" in params) ? { ...params, _meta: envelope } : params;
    // A 2025 client sends its version after initialize, and no other MCP header.
    const headers: Record<string, string | undefined> = modern
      ? standardHeaders(method, params)
      : {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": method === "initialize" ? undefined : era,
        };
    if (headers["mcp-name"] !== undefined) headers["mcp-name"] = headerValue(headers["mcp-name"]); // a name or URI beyond ASCII, in base64
    Object.assign(headers, options.headers, requestOptions.headers);
    const sent = Object.fromEntries(
      Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    return server.post({ jsonrpc: "2.0", id: requestOptions.id ?? nextId++, method, params: fullParams }, sent);
  };

  // The result is JSON off the wire; TestClient's signatures type it as the SDK types each method's result.
  const call = async (method: string, params: Json = {}, callOptions: CallOptions = {}): Promise<any> => {
    const { answers, stopAtInputRequired, maxRounds = 10, ...requestOptions } = callOptions;
    if (method === "tools/call" && era === MODERN) {
      const mirrored = paramHeaders((await inputSchemas()).get(params.name), params.arguments);
      requestOptions.headers = { ...mirrored, ...requestOptions.headers };
    }
    let retry: Json = {};
    for (let round = 1; ; round++) {
      const exchange = await request(method, { ...params, ...retry }, requestOptions);
      if (!exchange.body)
        throw new Error(`${method}: no JSON-RPC response (HTTP ${exchange.status}): ${exchange.text}`);
      if (exchange.body.error) throw new TestRpcError(exchange);
      const result = exchange.body.result as Json;
      if (result.resultType !== "input_required" || stopAtInputRequired) return result;
      if (round >= maxRounds) throw new Error(`${method}: still asking after ${maxRounds} rounds`);
      const inputResponses: Json = {};
      for (const [key, question] of Object.entries(result.inputRequests as Json)) {
        const answer = (await answerOf(answers, question, key)) ?? (await answerOf(options.answers, question, key));
        if (answer === undefined)
          throw new Error(
            `${method}: no answer for the input request "${key}" (${question.method}): give one in answers`,
          );
        inputResponses[key] = answer;
      }
      retry = { inputResponses, ...(result.requestState === undefined ? {} : { requestState: result.requestState }) };
    }
  };

  return {
    server,
    request,
    call,
    callTool: (name: string, args: Json = {}, callOptions?: CallOptions) =>
      call("tools/call", { name, arguments: args }, callOptions),
    getPrompt: (name: string, args: Json = {}, callOptions?: CallOptions) =>
      call("prompts/get", { name, arguments: args }, callOptions),
    readResource: (uri: string, callOptions?: CallOptions) => call("resources/read", { uri }, callOptions),
  };
}
