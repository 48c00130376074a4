/**
 * The server part of the in-process harness (`in-process.ts` is the module tests import): the server's own
 * modules (the routes, the plugins, the definitions) loaded into a module graph of their own, serving web
 * `Request`s through Nitro's `localFetch` (an h3 app with Nitro's file-based
 * routes, called with a mock Node request), so a request meets the same pipeline as on a real server.
 * What a build would provide (`useStorage`, `useRuntimeConfig`, the auto-imports, `#mcp-definitions`…)
 * comes from `in-process-runtime.ts` through the aliases in `tests/vitest.config.ts`.
 *
 * This file, `in-process-runtime.ts` and `in-process-platform.ts` are the only test code that knows the server's internals.
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
import { createClient, type TestClient, type TestClientOptions } from "./in-process-client";
import { parseSse, type Json } from "./rpc";
import { TEST_SECRET } from "./server.mjs";

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
  /** Serves one web request, through Nitro's `localFetch`. */
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

// What a module loaded outside a test server writes (each server keeps its own log: `in-process-platform.ts`) is kept out
// of the test output. Each such module graph opens the log (a listener on each stream), so the default limit of ten
// listeners would warn for nothing.
let silenced = false;
function silenceStdio(): void {
  if (silenced) return;
  silenced = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.setMaxListeners(0);
    stream.write = (() => true) as typeof stream.write;
  }
  process.setMaxListeners(0);
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

/**
 * Starts one server (see `createTestServer` in `in-process.ts`, which starts them one at a time: each loads its own
 * module graph, through one global setup slot).
 */
export async function startServer(options: TestServerOptions): Promise<TestServer> {
  silenceStdio();
  const log: string[] = [];
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
      log,
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
  }).finally(() => {
    // Started: a module graph loaded from now on (a test's own, after `vi.resetModules()`) is outside any server.
    delete (globalThis as { [SETUP]?: ServerSetup })[SETUP];
  });

  // A body's Content-Length, as an HTTP client sends it (unless the request names its own): the server reads what it declares.
  const withLength = (headers: Headers, length: number | undefined): Record<string, string> =>
    length === undefined
      ? Object.fromEntries(headers)
      : { "content-length": String(length), ...Object.fromEntries(headers) };
  const serve = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const body = /^(?:post|put|patch)$/i.test(request.method) ? Buffer.from(await request.arrayBuffer()) : undefined;
    return fetchNodeRequestHandler(handler, url.pathname + url.search, {
      method: request.method,
      headers: withLength(request.headers, body?.byteLength),
      body,
      host: url.host,
    });
  };
  // h3's plain handler hands a stream back as it is, unread; the Host header a web Request cannot carry is added.
  const streamed = toPlainHandler(app);
  const stream = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const body = /^(?:post|put|patch)$/i.test(request.method) ? await request.text() : undefined;
    const length = body === undefined ? undefined : Buffer.byteLength(body);
    const headers = { ...withLength(request.headers, length), host: url.host };
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
    logs: () => log.map((line) => `${line}\n`).join(""),
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
