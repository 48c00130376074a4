/**
 * The 2025 era's sealed session (server/features/legacy/session.ts), in-process: it opens for its principal on any
 * server sharing the secret (and its rotation), and nowhere else; expired, tampered, foreign or old-key sessions get
 * 404; a session, a `requestState` and an answer's id never pass for one another. Being asked over real HTTP, with the
 * official client: tests/e2e/legacy-ask.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { nowSeconds } from "../../../server/mcp/internal/basics";
import { stateCipher } from "../../../server/mcp/platform/node";
import { sealClaims } from "../../../server/mcp/state/codec";
import { createStateKeyRing } from "../../../server/mcp/state/keys";
import { TEST_STATE_SECRET, createTestServer, type TestServer } from "../../helpers/in-process";
import { hasFeature } from "../../helpers/project.mjs";
import { askToIncrement, CONFIRM, FIXTURES, OPAQUE_STATE_ERROR, uniqueKey } from "./flows";

const OLD_SECRET = "old-secret-0123456789abcdef0123456789ab";
const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
};
const CAPABILITIES = { elicitation: { form: {} }, sampling: {} };

let server: TestServer;
// The feature's module reads the runtime config: it is loaded once a test server provides one, whatever ran before.
let sessionModule: typeof import("../../../server/features/legacy/session");
let keptModule: typeof import("../../../server/features/legacy/kept-capabilities");
beforeAll(async () => {
  server = await createTestServer(FIXTURES);
  sessionModule = await import("../../../server/features/legacy/session");
  keptModule = await import("../../../server/features/legacy/kept-capabilities");
});

const initialize = async (on: TestServer, headers: Record<string, string> = {}) => {
  const params = {
    protocolVersion: "2025-11-25",
    capabilities: CAPABILITIES,
    clientInfo: { name: "raw", version: "1" },
  };
  const { headers: answered } = await on.post(
    { jsonrpc: "2.0", id: 1, method: "initialize", params },
    { ...HEADERS, ...headers },
  );
  return answered.get("mcp-session-id")!;
};
/** A 2025-era request presenting `session`: its status. */
const statusWith = async (on: TestServer, session: string, headers: Record<string, string> = {}) =>
  (
    await on.post(
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { ...HEADERS, "mcp-session-id": session, ...headers },
    )
  ).status;

/** A token sealed as this server would, for `purpose`, at `now`. */
async function sealAs(purpose: string, scope: string, data: Record<string, unknown>, now = nowSeconds()) {
  const ring = await createStateKeyRing({
    cipher: stateCipher,
    secret: TEST_STATE_SECRET,
    previous: [],
    allowEphemeral: false,
  });
  return sealClaims(ring, { principal: "anonymous", method: purpose, target: scope, arguments: undefined }, data, {
    ttlSeconds: 60,
    now,
  });
}

describe("the sealed session", () => {
  it("opens on any server with the same secret, and after a rotation that keeps the old one", async () => {
    const session = await initialize(server);
    expect(await statusWith(server, session)).toBe(200);
    expect(await statusWith(await createTestServer(FIXTURES), session)).toBe(200);
    const old = await initialize(await createTestServer({ ...FIXTURES, env: { NITRO_MCP_STATE_SECRET: OLD_SECRET } }));
    const rotated = await createTestServer({ ...FIXTURES, env: { NITRO_MCP_STATE_SECRET_PREVIOUS: OLD_SECRET } });
    expect(await statusWith(rotated, old)).toBe(200);
  });

  it("sealed with a key no longer configured: 404, the reason logged", async () => {
    const old = await initialize(await createTestServer({ ...FIXTURES, env: { NITRO_MCP_STATE_SECRET: OLD_SECRET } }));
    const mark = server.logs().length;
    expect(await statusWith(server, old)).toBe(404);
    await expect.poll(() => server.logs().slice(mark)).toMatch(/Mcp-Session-Id rejected: unknown key id/);
  });

  it("expired: 404 (a fresh one sealed the same way opens)", async () => {
    const data = { v: "2025-11-25", c: {} };
    expect(await statusWith(server, await sealAs(sessionModule.PURPOSE.session, "", data))).toBe(200);
    expect(await statusWith(server, await sealAs(sessionModule.PURPOSE.session, "", data, nowSeconds() - 3600))).toBe(
      404,
    );
  });

  it.each([
    ["a flipped character", (token: string) => token.slice(0, 30) + (token[30] === "A" ? "B" : "A") + token.slice(31)],
    ["a suffix", (token: string) => `${token}x`],
    ["another key id", (token: string) => token.replace(/^v1\.[^.]+\./, "v1.AAAAAAAA.")],
    ["garbage", () => "not-a-session"],
    ["over the length limit", (token: string) => token + "A".repeat(20_000)],
  ])("tampered (%s): 404 with a JSON-RPC error", async (_, tamper) => {
    const { status, body } = await server.post(
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { ...HEADERS, "mcp-session-id": tamper(await initialize(server)) },
    );
    expect(status).toBe(404);
    expect(body.error).toMatchObject({ code: -32600, message: expect.stringMatching(/initialize again/) });
  });

  it.runIf(hasFeature("sign-in"))("another principal's: 404", async () => {
    const signedIn = await createTestServer({
      ...FIXTURES,
      env: { NITRO_MCP_AUTH_TOKENS: "alice:alice-token-0123456789,bob:bob-token-0123456789" },
    });
    const alice = await initialize(signedIn, { authorization: "Bearer alice-token-0123456789" });
    expect(await statusWith(signedIn, alice, { authorization: "Bearer alice-token-0123456789" })).toBe(200);
    expect(await statusWith(signedIn, alice, { authorization: "Bearer bob-token-0123456789" })).toBe(404);
  });

  it("is ignored by initialize (a new session starts) and by 2026-07-28 requests", async () => {
    expect(await initialize(server, { "mcp-session-id": "stale" })).toMatch(/^v1\./);
    const modern = await server.connect().request("tools/list", {}, { headers: { "mcp-session-id": "stale" } });
    expect(modern.status).toBe(200);
  });
});

describe("a session, a requestState and an answer's id never pass for one another", () => {
  it("a requestState is not a session, and a session is not a requestState", async () => {
    const client = server.connect();
    const key = uniqueKey();
    const requestState = await askToIncrement(client, key);
    expect(await statusWith(server, requestState)).toBe(404);
    const retry = await client.request(
      "tools/call",
      {
        name: "confirm_increment",
        arguments: { key },
        inputResponses: CONFIRM,
        requestState: await initialize(server),
      },
      { capabilities: CAPABILITIES },
    );
    expect(retry.body.error).toEqual(OPAQUE_STATE_ERROR);
  });

  it("an answer's id is not a session, and a session is not an answer's id", async () => {
    const session = await initialize(server);
    const ticket = { channel: "c", round: "r", key: "confirm", until: Date.now() + 60_000 };
    expect(await statusWith(server, await sealAs(sessionModule.PURPOSE.answer, "", ticket))).toBe(404);
    const answered = await server.post(
      { jsonrpc: "2.0", id: session, result: {} },
      { ...HEADERS, "mcp-session-id": session },
    );
    expect(answered.status).toBe(400);
    expect(answered.body).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "This response answers no pending request of this session" },
    });
  });
});

describe("what a session keeps of the declared capabilities", () => {
  const declared = {
    elicitation: { form: {}, url: {}, extra: "x" },
    sampling: { tools: {}, context: true },
    roots: { listChanged: true },
    experimental: { big: "x".repeat(1000) },
  };
  const UI = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };

  it.each([
    ["2025-11-25", { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} }],
    ["2025-06-18", { elicitation: {}, sampling: { tools: {} }, roots: {} }],
    ["2025-03-26", { sampling: { tools: {} }, roots: {} }],
  ])("on %s: only what that revision can be asked, as presence", (version, kept) => {
    expect(keptModule.keptCapabilities(version, declared)).toEqual(kept);
  });

  it("a capability that is not an object declares nothing", () => {
    expect(keptModule.keptCapabilities("2025-11-25", { elicitation: true, sampling: "yes", roots: null })).toEqual({});
  });

  it("elicitation naming a mode without declaring one is not kept as the bare {} that means form", () => {
    const kept = (elicitation: unknown) => keptModule.keptCapabilities("2025-11-25", { elicitation }).elicitation;
    expect(kept({ form: "yes" })).toBeUndefined();
    expect(kept({ url: null })).toBeUndefined();
    expect(kept({ form: "yes", url: {} })).toEqual({ url: {} });
    expect(kept({})).toEqual({});
    expect(kept({ other: 1 })).toEqual({});
    // Sampling has no such rule: an invalid sub-capability leaves plain sampling declared, as the core reads it.
    expect(keptModule.keptCapabilities("2025-11-25", { sampling: { context: "yes" } })).toEqual({ sampling: {} });
  });

  it("keeps each extension with a copy of its settings, the UI extension's MIME types among them", () => {
    const extensions = { ...UI, "com.example/other": { level: 2, tags: ["a"] } };
    const kept = keptModule.keptCapabilities("2025-11-25", { extensions }).extensions;
    expect(kept).toEqual(extensions);
    expect(kept).not.toBe(extensions);
  });

  it.each([
    ["settings that are not an object", { "com.example/a": true, "com.example/b": ["x"], "com.example/c": null }],
    ["a name without a vendor prefix", { ui: {}, ["__proto__"]: {} }],
    ["a name with a space or a control character", { "com.example/a b": {}, "com.example/\u0007": {} }],
    ["a name over 128 characters", { [`com.example/${"n".repeat(117)}`]: {} }],
    ["settings over 256 bytes of JSON", { "com.example/big": { text: "é".repeat(124) } }],
  ])("leaves out %s", (_, extensions) => {
    expect(keptModule.keptCapabilities("2025-11-25", { extensions })).toEqual({});
  });

  it("keeps extensions in the order declared while they fit the budget, and any later one that still fits", () => {
    const wide = (i: number) => [`wide.example/${i}`, { text: "x".repeat(200) }] as const;
    const extensions = Object.fromEntries([wide(1), wide(2), wide(3), wide(4), wide(5), ...Object.entries(UI)]);
    const kept = keptModule.keptCapabilities("2025-11-25", { extensions }).extensions as Record<string, unknown>;
    expect(Object.keys(kept)).toEqual([
      "wide.example/1",
      "wide.example/2",
      "wide.example/3",
      "wide.example/4",
      ...Object.keys(UI),
    ]);
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(keptModule.MAX_EXTENSIONS_BYTES);
  });
});

describe("a session sealed without capabilities", () => {
  it("opens, as a client that declared none", async () => {
    const session = await sealAs(sessionModule.PURPOSE.session, "", { v: "2025-11-25" });
    expect(await statusWith(server, session)).toBe(200);
    const { body } = await server.post(
      { jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "fixture://asks" } },
      { ...HEADERS, "mcp-session-id": session },
    );
    expect(body.result.contents[0].text).toBe("plain (not asked)");
  });
});
