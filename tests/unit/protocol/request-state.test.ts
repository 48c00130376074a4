/**
 * requestState is attacker-controlled: every way of tampering with it gets the same opaque -32602, and
 * the guarded action does not happen (the counter each test owns stays at 0). In-process; a server
 * refusing to start on a short secret is tested end to end (tests/e2e/request-state.test.ts).
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { TEST_STATE_SECRET, createTestServer, type TestClient, type TestServer } from "../../helpers/in-process";
import {
  CONFIRM,
  ELICITATION,
  FIXTURES,
  askToIncrement,
  expectOpaqueRejection,
  readCounter,
  retryIncrement,
  uniqueKey,
} from "./flows";
import { hasFeature } from "../../helpers/project.mjs";

const start = async (env: Record<string, string> = {}) => (await createTestServer({ ...FIXTURES, env })).connect();

describe("tampering, on one server", () => {
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    server = await createTestServer(FIXTURES);
    client = server.connect();
  });

  it.each([
    [
      "a flipped byte",
      (state: string) => state.slice(0, 40) + (state[40] === "A" ? "B" : "A") + state.slice(41),
      /authentication failed/,
    ],
    ["a truncated state", (state: string) => state.slice(0, -10), /authentication failed|malformed/],
    ["a suffix", (state: string) => `${state}-TAMPERED`, /malformed|authentication failed/],
    ["another key id", (state: string) => state.replace(/^v1\.[^.]+\./, "v1.AAAAAAAA."), /unknown key id/],
    ["another version", (state: string) => state.replace(/^v1\./, "v2."), /malformed/],
    ["a number instead of a string", () => 12345, /not a string/],
    ["a state over the length limit", (state: string) => state + "A".repeat(20_000), /longer than 16384 characters/],
  ])("rejects %s, logs why, and the action is not run", async (_, tamper, reason) => {
    const key = uniqueKey();
    const state = await askToIncrement(client, key);
    const mark = server.logs().length;
    expectOpaqueRejection(await retryIncrement(client, key, tamper(state)));
    expect(await readCounter(client, key)).toBe(0);
    await expect
      .poll(() => server.logs().slice(mark))
      .toMatch(new RegExp(`requestState rejected on tools/call \\\\"confirm_increment\\\\": ${reason.source}`));
  });

  it("rejects a state replayed with other arguments", async () => {
    const [mine, other] = [uniqueKey(), uniqueKey()];
    const state = await askToIncrement(client, mine);
    expectOpaqueRejection(await retryIncrement(client, other, state));
    expect(await readCounter(client, other)).toBe(0);
  });

  it("rejects a state replayed on another tool", async () => {
    const other = await client.request(
      "tools/call",
      { name: "three_questions", arguments: {} },
      { capabilities: ELICITATION },
    );
    const key = uniqueKey();
    expectOpaqueRejection(await retryIncrement(client, key, other.body.result.requestState));
    expect(await readCounter(client, key)).toBe(0);
  });

  it("accepts a single-use state once: a second redemption is refused", async () => {
    const key = uniqueKey();
    const state = await askToIncrement(client, key);
    const first = await retryIncrement(client, key, state);
    expect(first.body.result.content[0].text).toBe(`Counter ${key} is now 1.`);
    const mark = server.logs().length;
    expectOpaqueRejection(await retryIncrement(client, key, state));
    expect(await readCounter(client, key)).toBe(1);
    await expect
      .poll(() => server.logs().slice(mark))
      .toMatch(/requestState rejected on tools\/call \\"confirm_increment\\": already redeemed/);
  });

  it("ignores answers sent without the state this single-use tool issued, and asks", async () => {
    const key = uniqueKey();
    const result = await client.request(
      "tools/call",
      { name: "confirm_increment", arguments: { key }, inputResponses: CONFIRM },
      { capabilities: ELICITATION },
    );
    expect(result.body.result.resultType).toBe("input_required");
    expect(await readCounter(client, key)).toBe(0);
  });

  it("rejects inputResponses that are not an object with -32602", async () => {
    const result = await client.request(
      "tools/call",
      { name: "three_questions", arguments: {}, inputResponses: null },
      { capabilities: ELICITATION },
    );
    expect(result.body.error.code).toBe(-32602);
  });

  it("logs the reason but never the state or the secret", async () => {
    const key = uniqueKey();
    const state = await askToIncrement(client, key);
    const mark = server.logs().length;
    expectOpaqueRejection(await retryIncrement(client, key, `${state}x`));
    await expect
      .poll(() => server.logs().slice(mark))
      .toMatch(/requestState rejected on tools\/call \\"confirm_increment\\": (malformed|authentication failed)/);
    expect(server.logs()).not.toContain(TEST_STATE_SECRET);
    expect(server.logs()).not.toContain(state);
  });
});

describe("expiry", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The state of round one, then the clock moved on by `seconds`. */
  async function stateAged(client: TestClient, key: string, seconds: number): Promise<string> {
    const state = await askToIncrement(client, key);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + seconds * 1000 });
    return state;
  }

  it("accepts a state while it is fresh", async () => {
    const client = await start();
    const key = uniqueKey();
    const result = await retryIncrement(client, key, await stateAged(client, key, 10));
    expect(result.body.result.content[0].text).toBe(`Counter ${key} is now 1.`);
  });

  it("rejects a state past its TTL plus the 5 s of allowed clock skew", async () => {
    const server = await createTestServer(FIXTURES);
    const client = server.connect();
    const key = uniqueKey();
    expectOpaqueRejection(await retryIncrement(client, key, await stateAged(client, key, 606)));
    expect(await readCounter(client, key)).toBe(0);
    await expect.poll(() => server.logs()).toMatch(/confirm_increment\\": expired/);
  });
});

describe.runIf(hasFeature("sign-in"))("principals", () => {
  const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    server = await createTestServer({
      ...FIXTURES,
      env: { NITRO_MCP_AUTH_TOKENS: "alice:alice-token-123,bob:bob-token-456" },
    });
    client = server.connect();
  });

  it("answers a missing token with 401 and a Bearer challenge", async () => {
    const result = await client.request("server/discover");
    expect(result.status).toBe(401);
    expect(result.headers.get("www-authenticate")).toBe('Bearer realm="mcp"');
  });

  it("answers a wrong token with 401 and error=invalid_token", async () => {
    const result = await client.request("server/discover", {}, as("alice-token-124"));
    expect(result.status).toBe(401);
    expect(result.headers.get("www-authenticate")).toBe(
      'Bearer realm="mcp", error="invalid_token", error_description="The bearer token is not valid"',
    );
  });

  it("rejects alice's state presented by bob, and accepts it from alice", async () => {
    const key = uniqueKey();
    const state = await askToIncrement(client, key, as("alice-token-123"));
    const mark = server.logs().length;
    expectOpaqueRejection(await retryIncrement(client, key, state, as("bob-token-456")));
    await expect.poll(() => server.logs().slice(mark)).toMatch(/sealed for another principal/);
    expect(await readCounter(client, key, as("bob-token-456"))).toBe(0);
    const done = await retryIncrement(client, key, state, as("alice-token-123"));
    expect(done.body.result.content[0].text).toBe(`Counter ${key} is now 1.`);
  });
});

describe("several instances and key rotation", () => {
  const OLD = "old-secret-0123456789abcdef0123456789";
  const NEW = "new-secret-0123456789abcdef0123456789";
  const answer = (key: string, content: object) => ({ [key]: { action: "accept", content } });

  it("completes a flow whose rounds land on two instances sharing one secret", async () => {
    const [a, b] = [await start(), await start()];
    const ask = (client: TestClient, extra: object) =>
      client.request("tools/call", { name: "three_questions", arguments: {}, ...extra }, { capabilities: ELICITATION });
    const r1 = await ask(a, {});
    const r2 = await ask(b, {
      requestState: r1.body.result.requestState,
      inputResponses: answer("word", { word: "Lin" }),
    });
    const r3 = await ask(a, {
      requestState: r2.body.result.requestState,
      inputResponses: answer("color", { color: "blue" }),
    });
    const r4 = await ask(b, { requestState: r3.body.result.requestState, inputResponses: answer("size", { size: 3 }) });
    expect(r4.body.result.content[0].text).toBe("Lin, blue, 3.");
  });

  it("refuses states between instances with different secrets", async () => {
    const a = await start({ NITRO_MCP_STATE_SECRET: OLD });
    const b = await createTestServer({ ...FIXTURES, env: { NITRO_MCP_STATE_SECRET: NEW } });
    const key = uniqueKey();
    expectOpaqueRejection(await retryIncrement(b.connect(), key, await askToIncrement(a, key)));
    await expect.poll(() => b.logs()).toMatch(/unknown key id/);
  });

  it("opens states of a previous secret while it is listed, and refuses them once it is dropped", async () => {
    const [key, other] = [uniqueKey(), uniqueKey()];
    const before = await start({ NITRO_MCP_STATE_SECRET: OLD });
    const [state, stale] = [await askToIncrement(before, key), await askToIncrement(before, other)];

    const rotated = await start({ NITRO_MCP_STATE_SECRET: NEW, NITRO_MCP_STATE_SECRET_PREVIOUS: OLD });
    expect((await retryIncrement(rotated, key, state)).body.result.content[0].text).toBe(`Counter ${key} is now 1.`);
    // New states are sealed with the new key only.
    const fresh = await askToIncrement(rotated, other);

    const dropped = await start({ NITRO_MCP_STATE_SECRET: NEW });
    expectOpaqueRejection(await retryIncrement(dropped, other, stale));
    expect((await retryIncrement(dropped, other, fresh)).body.result.content[0].text).toBe(
      `Counter ${other} is now 1.`,
    );
  });
});

describe("secret configuration", () => {
  it("refuses to start on a secret shorter than 32 bytes, without quoting it", async () => {
    const failure = createTestServer({ ...FIXTURES, env: { NITRO_MCP_STATE_SECRET: "short-secret-value" } });
    await expect(failure).rejects.toThrow(/NITRO_MCP_STATE_SECRET is 18 bytes long; it must be at least 32 bytes/);
    await expect(failure).rejects.not.toThrow(/short-secret-value/);
  });

  it("without a secret, serves plain tools and refuses to ask with a clear error", async () => {
    const server = await createTestServer({ ...FIXTURES, env: { NITRO_MCP_STATE_SECRET: "" } });
    const client = server.connect({ capabilities: ELICITATION });
    expect((await client.callTool("structured_sum", { a: 1, b: 1 })).structuredContent).toEqual({ sum: 2 });
    const asking = await client.request("tools/call", { name: "confirm_increment", arguments: { key: uniqueKey() } });
    expect(asking.status).toBe(500);
    expect(asking.body.error).toEqual({ code: -32603, message: expect.stringContaining("NITRO_MCP_STATE_SECRET") });
    await expect.poll(() => server.logs()).toMatch(/NITRO_MCP_STATE_SECRET is not set/);
  });
});
