/**
 * The server in the test process: no build, no HTTP server, no network.
 *
 * `createTestServer` loads the server's own modules (the routes, the plugins, the definitions) into a
 * module graph of its own and serves web `Request`s through them the way a Workers build serves them
 * (Nitro's `localFetch`: an h3 app with Nitro's file-based routes, called with a mock Node request), so
 * a request meets the same pipeline as on a real server: validation, `_meta`, mirrored headers,
 * capability checks, `requestState` sealed and opened, single use, the errors with their codes and
 * statuses. What a build would provide (`useStorage`, `useRuntimeConfig`, the auto-imports,
 * `#mcp-definitions`…) comes from `in-process-runtime.ts` through the aliases in `tests/vitest.config.ts`.
 *
 * `createTestClient` adds a client: it speaks 2026-07-28 with the capabilities a test declares (or a
 * 2025 version), and answers the server's questions the way the test says, round after round.
 *
 * This file and `in-process-runtime.ts` are the only test code that knows the server's internals: tests
 * use the functions below and look at requests and responses only.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createApp, createRouter, toNodeListener, toPlainHandler, type EventHandler } from "h3";
import { fetchNodeRequestHandler } from "node-mock-http";
import { applyEnv } from "nitropack/runtime/internal/utils.env";
import { vi } from "vitest";
import nitroConfig from "../../nitro.config";
import { featureDirs } from "../../server/build/features-module";
import { settingDefaults, type SettingTable } from "../../server/mcp/settings";
import type { ServerSetup } from "./in-process-runtime";
import { meta, parseSse, standardHeaders, type Json } from "./rpc";
import { TEST_SECRET } from "./server.mjs";

export type { Json };

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SETUP = Symbol.for("mcp-edge-template.in-process-setup");
const KINDS = ["tools", "prompts", "resources"] as const;

/** The optional features this checkout has (`server/features/<name>`), as the build's `#mcp-features` lists them. */
const FEATURES = featureDirs(ROOT).map((dir) => dir.slice("server/features/".length));
const SKILLS = resolve(ROOT, "server/features/skills");

/** What server/build/features-module.ts adds at build time: each feature's settings defaults, under the core's. */
async function featureSettingDefaults(): Promise<Record<string, unknown>> {
  const tables = await Promise.all(
    featureDirs(ROOT)
      .map((dir) => resolve(ROOT, dir, "settings.ts"))
      .filter((file) => existsSync(file))
      .map(async (file) => ((await import(file)) as { SETTINGS: SettingTable }).SETTINGS),
  );
  return Object.assign({}, ...tables.map((table) => settingDefaults(table)));
}
const SOURCE_FILE = /^[^._].*\.(?:ts|mts|js|mjs)$/;
/** The secret the test servers seal `requestState` with, as the end-to-end servers do. */
export const TEST_STATE_SECRET = TEST_SECRET;
/** Variables a test server never inherits from the shell running the tests: its settings are the test's. */
const SERVER_VARIABLE = /^(?:NITRO_|REDIS_URL$|UPSTASH_)/;

export interface TestServerOptions {
  /**
   * Definition files to serve (each default-exports `defineTool`, `definePrompt` or `defineResource`),
   * relative to the repository root. Without it: every definition in the scan dirs, as a build serves them.
   */
  definitions?: readonly string[];
  /**
   * Scan dirs besides `server/`, relative to the repository root: their `tools/`, `prompts/`,
   * `resources/`, `skills/`, `routes/` and `plugins/` are added, as the fixture build adds `tests/fixtures`.
   */
  scanDirs?: readonly string[];
  /**
   * The server's environment: `NITRO_MCP_*` settings (see server/mcp/settings.ts), storage variables.
   * `NITRO_MCP_STATE_SECRET` defaults to {@link TEST_STATE_SECRET}; `undefined` removes a variable.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

/** One HTTP exchange: the status, the headers, every JSON-RPC message of the body, and the final one. */
export interface Exchange {
  readonly status: number;
  readonly headers: Headers;
  /** `application/json`, `text/event-stream`… */
  readonly type: string;
  /** Every message: one for a JSON body, each event of an SSE stream (notifications, then the response). */
  readonly messages: readonly Json[];
  /** The response (the message with `result` or `error`); undefined for an empty body (202). */
  readonly body: Json;
  /** The body as text. */
  readonly text: string;
}

export interface TestServer {
  /** Serves one web request, as a Workers build would. */
  fetch(request: Request): Promise<Response>;
  /** Serves one web request whose response body is readable as it is written (a `subscriptions/listen` stream); cancelling the body is the client going away. */
  stream(request: Request): Promise<Response>;
  /** POSTs `body` (an object is sent as JSON) to `path` (default `/mcp`) with exactly these headers. */
  post(body: unknown, headers?: Readonly<Record<string, string>>, path?: string): Promise<Exchange>;
  /** A client of this server. */
  connect(options?: TestClientOptions): TestClient;
  /** What the server logged since it started (one JSON line each; the log is kept here, not printed), for assertions on what the operator reads. */
  logs(): string;
}

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

export interface TestClient {
  readonly server: TestServer;
  /**
   * A result: sends the request, answers every `input_required` round (unless told to stop at the
   * first) and returns the final result. A JSON-RPC error is thrown as a {@link TestRpcError}.
   */
  call(method: string, params?: Json, options?: CallOptions): Promise<Json>;
  /** `tools/call`, as {@link TestClient.call}, with the `Mcp-Param-*` headers its `x-mcp-header` parameters need (read from tools/list). */
  callTool(name: string, args?: Json, options?: CallOptions): Promise<Json>;
  /** `prompts/get`, as {@link TestClient.call}. */
  getPrompt(name: string, args?: Readonly<Record<string, string>>, options?: CallOptions): Promise<Json>;
  /** `resources/read`, as {@link TestClient.call}. */
  readResource(uri: string, options?: CallOptions): Promise<Json>;
  /** One exchange with this client's envelope (`_meta`, mirrored headers), whatever the answer: for protocol tests. */
  request(method: string, params?: Json, options?: RequestOptions): Promise<Exchange>;
}

// ——— the server ———

const listFiles = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((file) => SOURCE_FILE.test(file) && !file.endsWith(".d.ts"))
        .sort()
        .map((file) => join(dir, file))
    : [];

const listFilesDeep = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .sort((a, b) => (a.name < b.name ? -1 : 1))
        .flatMap((entry) =>
          entry.isDirectory()
            ? listFilesDeep(join(dir, entry.name))
            : SOURCE_FILE.test(entry.name)
              ? [join(dir, entry.name)]
              : [],
        )
    : [];

/** Nitro's file-based routing: `mcp.post.ts` → POST /mcp, `connect/[code].get.ts` → GET /connect/:code, `[...].ts` → /**. */
function routeOf(routesDir: string, file: string): { route: string; method?: string } {
  let path = relative(routesDir, file).replace(/\.[mc]?[jt]s$/, "");
  const method = /\.(get|post|put|patch|delete|head|options)$/.exec(path)?.[1];
  if (method) path = path.slice(0, -method.length - 1);
  const segments = path
    .split("/")
    .filter((segment, index, all) => !(segment === "index" && index === all.length - 1))
    .map((segment) =>
      segment === "[...]" ? "**" : segment.replace(/^\[\.\.\.(\w+)\]$/, "**:$1").replace(/\[(\w+)\]/g, ":$1"),
    );
  return { route: `/${segments.join("/")}`, method };
}

/** Sets the server's environment while `start` runs (its settings are read then), and puts the shell's back after. */
async function withServerEnvironment<T>(env: TestServerOptions["env"], start: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  for (const name of Object.keys(process.env)) if (SERVER_VARIABLE.test(name)) delete process.env[name];
  for (const [name, value] of Object.entries({ NITRO_MCP_STATE_SECRET: TEST_STATE_SECRET, ...env })) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  try {
    return await start();
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
}

// The servers' log: kept for `logs()`, out of the test output. Every test server opens the log (a
// listener on each stream), so the default limit of ten listeners would warn for nothing.
let logged: string | undefined;
function captureLog(): void {
  if (logged !== undefined) return;
  logged = "";
  for (const stream of [process.stdout, process.stderr]) {
    stream.setMaxListeners(0);
    stream.write = ((chunk: string | Uint8Array) => {
      logged += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
      return true;
    }) as typeof stream.write;
  }
  process.setMaxListeners(0);
}

/** Servers start one at a time: each loads its own module graph, through one global setup slot. */
let starting: Promise<unknown> = Promise.resolve();

/**
 * Starts a server in this process, with its own definitions, settings and in-memory storage.
 * Each call is a fresh server: nothing is shared with another test's. (Each loads the server's modules
 * afresh, after `vi.resetModules()`: a test's own dynamic imports made later load fresh copies too.)
 *
 * @example
 * const server = await createTestServer({ scanDirs: ["tests/fixtures"], env: { NITRO_MCP_PAGE_SIZE: "2" } });
 * const reply = await server.post("{not json", { "content-type": "application/json" });
 * expect(reply.status).toBe(400);
 */
export function createTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const started = starting.then(() => startServer(options));
  starting = started.catch(() => {});
  return started;
}

/** What server/build/stores-module.ts gives a Node build: each folder of server/storage/ with a `node.ts`, and its ports. */
async function nodeStores(): Promise<ServerSetup["stores"]> {
  const dir = join(ROOT, "server/storage");
  const folders = readdirSync(dir, { withFileTypes: true }).filter(
    (entry) => entry.isDirectory() && existsSync(join(dir, entry.name, "node.ts")),
  );
  return Promise.all(
    folders.map(async ({ name }) => {
      const load = async (file: string) => ((await import(join(dir, name, file))) as { default: unknown }).default;
      const ports: Record<string, unknown> = {};
      for (const port of ["bus", "counter"])
        if (existsSync(join(dir, name, `${port}.ts`))) ports[port] = await load(`${port}.ts`);
      return { definition: await load("node.ts"), ports };
    }),
  );
}

async function readSkillFolders(scanDirs: readonly string[]): Promise<unknown[]> {
  const { readSkills } = (await import(join(SKILLS, "skill-files.ts"))) as { readSkills: (dir: string) => unknown[] };
  return scanDirs.flatMap((dir) => readSkills(join(dir, "skills")));
}

async function startServer(options: TestServerOptions): Promise<TestServer> {
  captureLog();
  const logStart = logged!.length;
  // As Nitro scans: the source dir, nitro.config.ts's scan dirs (`server/`), then the test's; plugins listed in nitro.config.ts first.
  const scanDirs = [
    ROOT,
    ...[...(nitroConfig.scanDirs ?? []), ...(options.scanDirs ?? [])].map((dir) => resolve(ROOT, dir!)),
  ];
  const definitionFiles = options.definitions
    ? options.definitions.map((file) => resolve(ROOT, file))
    : KINDS.flatMap((kind) => scanDirs.flatMap((dir) => listFiles(join(dir, kind))));

  const { handler, app } = await withServerEnvironment(options.env, async () => {
    const setup: ServerSetup = {
      // nitro.config.ts's runtime config, with the NITRO_* variables applied by Nitro's own function.
      runtimeConfig: applyEnv(
        { mcp: { ...(await featureSettingDefaults()), ...(nitroConfig.runtimeConfig!.mcp as object) } },
        { prefix: "NITRO_", altPrefix: "_", envExpansion: false },
      ),
      definitions: { tools: [], prompts: [], resources: [] },
      stores: [],
      // The skills feature's build step (its module.ts): the skill folders of the definition roots.
      skills: options.definitions || !FEATURES.includes("skills") ? [] : await readSkillFolders(scanDirs),
    };
    (globalThis as { [SETUP]?: ServerSetup })[SETUP] = setup;
    vi.resetModules(); // a module graph of this server's own: its registry, its configuration, its storage
    for (const file of definitionFiles) {
      if (!existsSync(file)) throw new Error(`createTestServer: no definition file ${relative(ROOT, file)}`);
      const definition = ((await import(file)) as { default?: { kind?: string } }).default;
      const kind = `${definition?.kind}s` as (typeof KINDS)[number];
      if (!KINDS.includes(kind))
        throw new Error(`${relative(ROOT, file)} must default-export defineTool, definePrompt or defineResource`);
      setup.definitions[kind].push([definition, relative(ROOT, file)]);
    }
    // After the definitions: the stores' modules load the core, whose registry reads them.
    setup.stores.push(...(await nodeStores()));

    const hooks = createHooks();
    const app = createApp({
      onRequest: (event) => {
        // Nitro's app gives every event `waitUntil` (a task's rounds go on after the response); on Node the work just runs on.
        event.waitUntil = () => {};
        // A streamed request's body, where a Node request carries it (see `stream` below).
        if (event.context.inProcessBody !== undefined)
          (event.node.req as { body?: unknown }).body = event.context.inProcessBody;
        return hooks.call("request", event);
      },
      onAfterResponse: (event, response) => hooks.call("afterResponse", event, response),
    });
    const router = createRouter({ preemptive: true });
    const routes = scanDirs.flatMap((dir) =>
      listFilesDeep(join(dir, "routes")).map((file) => ({ ...routeOf(join(dir, "routes"), file), file })),
    );
    for (const { route, method, file } of routes)
      router.use(route, ((await import(file)) as { default: EventHandler }).default, method as "get" | undefined);
    app.use(router.handler);
    const plugins = [
      ...(nitroConfig.plugins ?? []).map((file) => resolve(ROOT, file!)),
      ...scanDirs.flatMap((dir) => listFiles(join(dir, "plugins"))),
    ];
    for (const file of plugins) {
      const plugin = ((await import(file)) as { default: (nitroApp: unknown) => void }).default;
      plugin({ hooks, h3App: app, router });
    }
    return { handler: toNodeListener(app), app };
  });

  const serve = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const body = /^(?:post|put|patch)$/i.test(request.method) ? Buffer.from(await request.arrayBuffer()) : undefined;
    return fetchNodeRequestHandler(handler, url.pathname + url.search, {
      method: request.method,
      headers: request.headers,
      body,
      host: url.host,
    });
  };
  // h3's plain handler hands a stream back as it is, unread; the Host header a web Request cannot carry is added.
  const streamed = toPlainHandler(app);
  const stream = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const headers = { ...Object.fromEntries(request.headers), host: url.host };
    const body = /^(?:post|put|patch)$/i.test(request.method) ? await request.text() : undefined;
    const answer = await streamed({
      method: request.method,
      path: url.pathname + url.search,
      headers,
      context: { inProcessBody: body },
    });
    return new Response(answer.body as BodyInit, { status: answer.status, headers: answer.headers });
  };
  const server: TestServer = {
    fetch: serve,
    stream,
    async post(body, headers = { "content-type": "application/json" }, path = "/mcp") {
      const response = await serve(
        new Request(`http://localhost${path}`, {
          method: "POST",
          headers,
          body: typeof body === "string" ? body : JSON.stringify(body),
        }),
      );
      return readExchange(response);
    },
    connect: (clientOptions) => createClient(server, clientOptions),
    logs: () => logged!.slice(logStart),
  };
  return server;
}

/** Nitro's hooks, as far as plugins use them: `hook` to listen, called in order. */
function createHooks() {
  const listeners = new Map<string, ((...args: unknown[]) => unknown)[]>();
  return {
    hook(name: string, listener: (...args: any[]) => unknown) {
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
    },
    async call(name: string, ...args: unknown[]) {
      for (const listener of listeners.get(name) ?? []) await listener(...args);
    },
  };
}

async function readExchange(response: Response): Promise<Exchange> {
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  const messages = type.startsWith("text/event-stream")
    ? parseSse(text)
    : text && type.startsWith("application/json")
      ? [JSON.parse(text)]
      : [];
  const body = messages.find((message) => "result" in message || "error" in message) as Json;
  return { status: response.status, headers: response.headers, type, messages, body, text };
}

// ——— the client ———

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

function createClient(server: TestServer, options: TestClientOptions = {}): TestClient {
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

  const call: TestClient["call"] = async (method, params = {}, callOptions = {}) => {
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
    callTool: (name, args = {}, callOptions) => call("tools/call", { name, arguments: args }, callOptions),
    getPrompt: (name, args = {}, callOptions) => call("prompts/get", { name, arguments: args }, callOptions),
    readResource: (uri, callOptions) => call("resources/read", { uri }, callOptions),
  };
}

/**
 * A fresh server in this process (as createTestServer starts one) and a client of it: the quickest way to test a definition.
 *
 * @example
 * const client = await createTestClient({ definitions: ["server/tools/delete_note.ts"], capabilities: { elicitation: { form: {} } } });
 * const result = await client.callTool("delete_note", { note_id: "7" }, { answers: { confirm: { action: "accept", content: { confirm: true } } } });
 * expect(result.content[0].text).toMatch(/^Deleted note 7/);
 */
export async function createTestClient(options: TestServerOptions & TestClientOptions = {}): Promise<TestClient> {
  const { definitions, scanDirs, env, ...clientOptions } = options;
  return (await createTestServer({ definitions, scanDirs, env })).connect(clientOptions);
}
