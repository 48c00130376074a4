/**
 * The server in the test process: no build, no HTTP server, no network. Tests import this module.
 *
 * `createTestServer` loads the server's own modules (the routes, the plugins, the definitions) into a
 * module graph of its own and serves web `Request`s through them (Nitro's `localFetch`),
 * so a request meets the same pipeline as on a real server: validation, `_meta`, mirrored headers,
 * capability checks, `requestState` sealed and opened, single use, the errors with their codes and
 * statuses (`in-process-server.ts`).
 *
 * `createTestClient` adds a client: it speaks 2026-07-28 with the capabilities a test declares (or a
 * 2025 version), answers the server's questions the way the test says, round after round, and types
 * each result as the official SDK types it (`in-process-client.ts`).
 *
 * Tests use the functions below and look at requests and responses only.
 */
import type { TestClient, TestClientOptions } from "./in-process-client";
import { startServer, type TestServer, type TestServerOptions } from "./in-process-server";

export {
  type Answer,
  type Answers,
  type AnswerOptions,
  type CallOptions,
  type RequestOptions,
  type ResultOf,
  type StopOptions,
  type TestClient,
  type TestClientOptions,
  TestRpcError,
} from "./in-process-client";
export { type Exchange, TEST_STATE_SECRET, type TestServer, type TestServerOptions } from "./in-process-server";
export type { Json } from "./rpc";

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

/**
 * A fresh server in this process (as createTestServer starts one) and a client of it: the quickest way to test a definition.
 *
 * @example
 * const client = await createTestClient({ definitions: ["server/tools/delete_note.ts"], capabilities: { elicitation: { form: {} } } });
 * const result = await client.callTool("delete_note", { note_id: "7" }, { answers: { confirm: { action: "accept", content: { confirm: true } } } });
 * expect(result.content).toEqual([{ type: "text", text: expect.stringMatching(/^Deleted note 7/) }]);
 */
export async function createTestClient(options: TestServerOptions & TestClientOptions = {}): Promise<TestClient> {
  const { definitions, scanDirs, env, ...clientOptions } = options;
  return (await createTestServer({ definitions, scanDirs, env })).connect(clientOptions);
}
