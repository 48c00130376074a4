/**
 * requestState is attacker-controlled: every way of tampering with it gets the same opaque
 * -32602, and the guarded action does not happen (the counter each test owns stays at 0).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealRequestState } from "../../server/mcp/state/codec";
import { stateCipher } from "../../server/mcp/state/cipher.web";
import { createStateKeyRing } from "../../server/mcp/state/keys";
import { CONFIRM, ELICITATION, askToIncrement, expectOpaqueRejection, readCounter, retryIncrement, uniqueKey } from "../helpers/flows";
import { post } from "../helpers/rpc";
import { TEST_SECRET, startServer, startServerExpectingFailure, type RunningServer } from "../helpers/server.mjs";
import { hasFeature } from "../helpers/project.mjs";

describe("tampering, on one server", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it.each([
    ["a flipped byte", (state: string) => state.slice(0, 40) + (state[40] === "A" ? "B" : "A") + state.slice(41), /authentication failed/],
    ["a truncated state", (state: string) => state.slice(0, -10), /authentication failed|malformed/],
    ["a suffix", (state: string) => `${state}-TAMPERED`, /malformed|authentication failed/],
    ["another key id", (state: string) => state.replace(/^v1\.[^.]+\./, "v1.AAAAAAAA."), /unknown key id/],
    ["another version", (state: string) => state.replace(/^v1\./, "v2."), /malformed/],
    ["a number instead of a string", () => 12345, /not a string/],
    ["a state over the length limit", (state: string) => state + "A".repeat(20_000), /longer than 16384 characters/],
  ])("rejects %s, logs why, and the action is not run", async (_, tamper, reason) => {
    const key = uniqueKey();
    const state = await askToIncrement(server.url, key);
    const mark = server.logs().length;
    expectOpaqueRejection(await retryIncrement(server.url, key, tamper(state)));
    expect(await readCounter(server.url, key)).toBe(0);
    await expect.poll(() => server.logs().slice(mark)).toMatch(new RegExp(`requestState rejected on tools/call "confirm_increment": ${reason.source}`));
  });

  it("rejects a state replayed with other arguments", async () => {
    const [mine, other] = [uniqueKey(), uniqueKey()];
    const state = await askToIncrement(server.url, mine);
    expectOpaqueRejection(await retryIncrement(server.url, other, state));
    expect(await readCounter(server.url, other)).toBe(0);
  });

  it("rejects a state replayed on another tool", async () => {
    const other = await post(server.url, "tools/call", { name: "three_questions", arguments: {} }, { capabilities: ELICITATION });
    const key = uniqueKey();
    expectOpaqueRejection(await retryIncrement(server.url, key, other.body.result.requestState));
    expect(await readCounter(server.url, key)).toBe(0);
  });

  it("accepts a single-use state once: a second redemption is refused", async () => {
    const key = uniqueKey();
    const state = await askToIncrement(server.url, key);
    const first = await retryIncrement(server.url, key, state);
    expect(first.body.result.content[0].text).toBe(`Counter ${key} is now 1.`);
    const mark = server.logs().length;
    expectOpaqueRejection(await retryIncrement(server.url, key, state));
    expect(await readCounter(server.url, key)).toBe(1);
    await expect.poll(() => server.logs().slice(mark)).toMatch(/requestState rejected on tools\/call "confirm_increment": already redeemed/);
  });

  it("ignores answers sent without the state this single-use tool issued, and asks", async () => {
    const key = uniqueKey();
    const result = await post(
      server.url,
      "tools/call",
      { name: "confirm_increment", arguments: { key }, inputResponses: CONFIRM },
      { capabilities: ELICITATION },
    );
    expect(result.body.result.resultType).toBe("input_required");
    expect(await readCounter(server.url, key)).toBe(0);
  });

  it("rejects inputResponses that are not an object with -32602", async () => {
    const result = await post(server.url, "tools/call", { name: "three_questions", arguments: {}, inputResponses: null }, { capabilities: ELICITATION });
    expect(result.body.error.code).toBe(-32602);
  });

  it("logs the reason but never the state or the secret", async () => {
    const key = uniqueKey();
    const state = await askToIncrement(server.url, key);
    const mark = server.logs().length;
    expectOpaqueRejection(await retryIncrement(server.url, key, `${state}x`));
    await expect.poll(() => server.logs().slice(mark)).toMatch(/requestState rejected on tools\/call "confirm_increment": (malformed|authentication failed)/);
    expect(server.logs()).not.toContain(TEST_SECRET);
    expect(server.logs()).not.toContain(state);
  });
});

describe("expiry", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  /** A state sealed with the server's secret, as if issued `secondsAgo` seconds ago, for `key`. */
  async function stateIssuedAgo(key: string, secondsAgo: number, ttlSeconds = 600): Promise<string> {
    const ring = await createStateKeyRing({ cipher: stateCipher, secret: TEST_SECRET, previous: [], allowEphemeral: false });
    const binding = { principal: "anonymous", method: "tools/call", target: "confirm_increment", arguments: { key } };
    return sealRequestState(ring, binding, {}, { ttlSeconds, now: Math.floor(Date.now() / 1000) - secondsAgo });
  }

  it("accepts a state sealed in-process with the same secret while it is fresh", async () => {
    const key = uniqueKey();
    const result = await retryIncrement(server.url, key, await stateIssuedAgo(key, 10));
    expect(result.body.result.content[0].text).toBe(`Counter ${key} is now 1.`);
  });

  it("rejects a state past its TTL plus the 5 s of allowed clock skew", async () => {
    const key = uniqueKey();
    const mark = server.logs().length;
    expectOpaqueRejection(await retryIncrement(server.url, key, await stateIssuedAgo(key, 606)));
    expect(await readCounter(server.url, key)).toBe(0);
    await expect.poll(() => server.logs().slice(mark)).toMatch(/confirm_increment": expired/);
  });
});

describe.runIf(hasFeature("sign-in"))("principals", () => {
  const tokens = "alice:alice-token-123,bob:bob-token-456";
  const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: { NITRO_MCP_AUTH_TOKENS: tokens } });
  });
  afterAll(() => server.stop());

  it("answers a missing token with 401 and a Bearer challenge", async () => {
    const result = await post(server.url, "server/discover", {});
    expect(result.status).toBe(401);
    expect(result.headers.get("www-authenticate")).toBe('Bearer realm="mcp"');
  });

  it("answers a wrong token with 401 and error=invalid_token", async () => {
    const result = await post(server.url, "server/discover", {}, as("alice-token-124"));
    expect(result.status).toBe(401);
    expect(result.headers.get("www-authenticate")).toBe('Bearer realm="mcp", error="invalid_token", error_description="The bearer token is not valid"');
  });

  it("rejects alice's state presented by bob, and accepts it from alice", async () => {
    const key = uniqueKey();
    const state = await askToIncrement(server.url, key, as("alice-token-123"));
    const mark = server.logs().length;
    expectOpaqueRejection(await retryIncrement(server.url, key, state, as("bob-token-456")));
    await expect.poll(() => server.logs().slice(mark)).toMatch(/sealed for another principal/);
    expect(await readCounter(server.url, key, as("bob-token-456"))).toBe(0);
    const done = await retryIncrement(server.url, key, state, as("alice-token-123"));
    expect(done.body.result.content[0].text).toBe(`Counter ${key} is now 1.`);
  });
});

describe("several instances and key rotation", () => {
  const OLD = "old-secret-0123456789abcdef0123456789";
  const NEW = "new-secret-0123456789abcdef0123456789";
  const answer = (key: string, content: object) => ({ [key]: { action: "accept", content } });

  it("completes a flow whose rounds land on two instances sharing one secret", async () => {
    const [a, b] = await Promise.all([startServer(), startServer()]);
    const ask = (url: string, extra: object) => post(url, "tools/call", { name: "three_questions", arguments: {}, ...extra }, { capabilities: ELICITATION });
    const r1 = await ask(a.url, {});
    const r2 = await ask(b.url, { requestState: r1.body.result.requestState, inputResponses: answer("word", { word: "Lin" }) });
    const r3 = await ask(a.url, { requestState: r2.body.result.requestState, inputResponses: answer("color", { color: "blue" }) });
    const r4 = await ask(b.url, { requestState: r3.body.result.requestState, inputResponses: answer("size", { size: 3 }) });
    expect(r4.body.result.content[0].text).toBe("Lin, blue, 3.");
    await Promise.all([a.stop(), b.stop()]);
  });

  it("refuses states between instances with different secrets", async () => {
    const [a, b] = await Promise.all([startServer({ env: { NITRO_MCP_STATE_SECRET: OLD } }), startServer({ env: { NITRO_MCP_STATE_SECRET: NEW } })]);
    const key = uniqueKey();
    expectOpaqueRejection(await retryIncrement(b.url, key, await askToIncrement(a.url, key)));
    await expect.poll(() => b.logs()).toMatch(/unknown key id/);
    await Promise.all([a.stop(), b.stop()]);
  });

  it("opens states of a previous secret while it is listed, and refuses them once it is dropped", async () => {
    const [key, other] = [uniqueKey(), uniqueKey()];
    const before = await startServer({ env: { NITRO_MCP_STATE_SECRET: OLD } });
    const [state, stale] = [await askToIncrement(before.url, key), await askToIncrement(before.url, other)];
    await before.stop();

    const rotated = await startServer({ env: { NITRO_MCP_STATE_SECRET: NEW, NITRO_MCP_STATE_SECRET_PREVIOUS: OLD } });
    expect((await retryIncrement(rotated.url, key, state)).body.result.content[0].text).toBe(`Counter ${key} is now 1.`);
    // New states are sealed with the new key only.
    const fresh = await askToIncrement(rotated.url, other);
    await rotated.stop();

    const dropped = await startServer({ env: { NITRO_MCP_STATE_SECRET: NEW } });
    expectOpaqueRejection(await retryIncrement(dropped.url, other, stale));
    expect((await retryIncrement(dropped.url, other, fresh)).body.result.content[0].text).toBe(`Counter ${other} is now 1.`);
    await dropped.stop();
  });
});

describe("secret configuration", () => {
  it("stops at start-up on a secret shorter than 32 bytes, without printing it", async () => {
    const { code, output } = await startServerExpectingFailure({ NITRO_MCP_STATE_SECRET: "short-secret-value" });
    expect(code).not.toBe(0);
    expect(output).toMatch(/NITRO_MCP_STATE_SECRET is 18 bytes long; it must be at least 32 bytes/);
    expect(output).not.toContain("short-secret-value");
  });

  it("without a secret in production, serves plain tools and refuses to ask with a clear error", async () => {
    const server = await startServer({ env: { NITRO_MCP_STATE_SECRET: "" } });
    const plain = await post(server.url, "tools/call", { name: "structured_sum", arguments: { a: 1, b: 1 } });
    expect(plain.body.result.structuredContent).toEqual({ sum: 2 });
    const asking = await post(server.url, "tools/call", { name: "confirm_increment", arguments: { key: uniqueKey() } }, { capabilities: ELICITATION });
    expect(asking.status).toBe(500);
    expect(asking.body.error).toEqual({ code: -32603, message: expect.stringContaining("NITRO_MCP_STATE_SECRET") });
    await expect.poll(() => server.logs()).toMatch(/NITRO_MCP_STATE_SECRET is not set/);
    await server.stop();
  });
});
