/**
 * requestState is attacker-controlled: every way of tampering with it gets the same
 * opaque -32602, and the guarded action does not happen.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, type Json } from "../helpers/rpc";
import { TEST_SECRET, startServer, startServerExpectingFailure, type RunningServer } from "../helpers/server.mjs";

const ELICITATION = { elicitation: { form: {} } };
const OPAQUE = { code: -32602, message: "Invalid or expired requestState" };
const ACCEPT = { confirm: { action: "accept", content: { confirm: true } } };

/** Round one of delete_note: returns the sealed state. */
async function askToDelete(url: string, noteId: string, headers?: Record<string, string>): Promise<string> {
  const first = await post(url, "tools/call", { name: "delete_note", arguments: { note_id: noteId } }, { capabilities: ELICITATION, headers });
  expect(first.body.result.resultType).toBe("input_required");
  return first.body.result.requestState;
}

/** Round two: the retry with an answer and a (possibly tampered) state. */
function retryDelete(url: string, noteId: string, requestState: unknown, headers?: Record<string, string>) {
  return post(
    url,
    "tools/call",
    { name: "delete_note", arguments: { note_id: noteId }, inputResponses: ACCEPT, requestState },
    { capabilities: ELICITATION, headers },
  );
}

const listNotes = async (url: string, headers?: Record<string, string>) =>
  (await post(url, "tools/call", { name: "list_notes", arguments: {} }, { headers })).body.result.content[0].text as string;

function expectOpaqueRejection(result: { status: number; body: Json }) {
  expect(result.status).toBe(200);
  expect(result.body.error).toEqual(OPAQUE);
}

describe("tampering, on one server", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it.each([
    ["a flipped byte", (state: string) => state.slice(0, 40) + (state[40] === "A" ? "B" : "A") + state.slice(41)],
    ["a truncated state", (state: string) => state.slice(0, -10)],
    ["a suffix", (state: string) => `${state}-TAMPERED`],
    ["another key id", (state: string) => state.replace(/^v1\.[^.]+\./, "v1.AAAAAAAA.")],
    ["another version", (state: string) => state.replace(/^v1\./, "v2.")],
    ["a number instead of a string", () => 12345],
    ["a state over the length limit", () => "v1.AAAAAAAA." + "A".repeat(20_000)],
  ])("rejects %s, and the note is kept", async (_, tamper) => {
    const state = await askToDelete(server.url, "7");
    expectOpaqueRejection(await retryDelete(server.url, "7", tamper(state)));
    expect(await listNotes(server.url)).toContain("#7 ");
  });

  it("rejects a state replayed on another note", async () => {
    const state = await askToDelete(server.url, "7");
    expectOpaqueRejection(await retryDelete(server.url, "12", state));
    expect(await listNotes(server.url)).toContain("#12 ");
  });

  it("rejects a state replayed on another tool", async () => {
    const wizard = await post(server.url, "tools/call", { name: "wizard", arguments: {} }, { capabilities: ELICITATION });
    expectOpaqueRejection(await retryDelete(server.url, "7", wizard.body.result.requestState));
  });

  it("accepts a state once: a second redemption is refused", async () => {
    const state = await askToDelete(server.url, "15");
    const first = await retryDelete(server.url, "15", state);
    expect(first.body.result.content[0].text).toMatch(/^Deleted note 15/);
    expectOpaqueRejection(await retryDelete(server.url, "15", state));
    expect(server.logs()).toMatch(/requestState rejected on tools\/call "delete_note": already redeemed/);
  });

  it("ignores answers sent without the state this single-use tool issued, and asks", async () => {
    const result = await post(
      server.url,
      "tools/call",
      { name: "delete_note", arguments: { note_id: "12" }, inputResponses: ACCEPT },
      { capabilities: ELICITATION },
    );
    expect(result.body.result.resultType).toBe("input_required");
    expect(await listNotes(server.url)).toContain("#12 ");
  });

  it("rejects inputResponses that are not an object with -32602", async () => {
    const result = await post(
      server.url,
      "tools/call",
      { name: "wizard", arguments: {}, inputResponses: null },
      { capabilities: ELICITATION },
    );
    expect(result.body.error.code).toBe(-32602);
  });

  it("logs the real reason but never the state or the secret", () => {
    expect(server.logs()).toMatch(/requestState rejected on tools\/call "delete_note": (authentication failed|malformed)/);
    expect(server.logs()).toMatch(/sealed for another request/);
    expect(server.logs()).not.toContain(TEST_SECRET);
    expect(server.logs()).not.toMatch(/v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{20,}/);
  });
});

describe("expiry", () => {
  it("rejects a state past its TTL (plus 5 s of allowed clock skew)", async () => {
    const server = await startServer({ env: { NITRO_MCP_STATE_TTL_SECONDS: "1" } });
    const state = await askToDelete(server.url, "7");
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    expectOpaqueRejection(await retryDelete(server.url, "7", state));
    expect(server.logs()).toMatch(/: expired/);
    await server.stop();
  }, 20_000);
});

describe("principals", () => {
  const tokens = "alice:alice-token-123,bob:bob-token-456";
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
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
    const result = await post(server.url, "server/discover", {}, { headers: as("alice-token-124") });
    expect(result.status).toBe(401);
    expect(result.headers.get("www-authenticate")).toBe('Bearer realm="mcp", error="invalid_token"');
  });

  it("rejects alice's state presented by bob", async () => {
    const state = await askToDelete(server.url, "7", as("alice-token-123"));
    expectOpaqueRejection(await retryDelete(server.url, "7", state, as("bob-token-456")));
    expect(server.logs()).toMatch(/sealed for another principal/);
    const done = await retryDelete(server.url, "7", state, as("alice-token-123"));
    expect(done.body.result.content[0].text).toMatch(/^Deleted note 7/);
  });
});

describe("several instances and key rotation", () => {
  const OLD = "old-secret-0123456789abcdef0123456789";
  const NEW = "new-secret-0123456789abcdef0123456789";

  it("completes a flow whose rounds land on two instances sharing one secret", async () => {
    const [a, b] = await Promise.all([startServer(), startServer()]);
    const wizard = (url: string, extra: Json) =>
      post(url, "tools/call", { name: "wizard", arguments: {}, ...extra }, { capabilities: ELICITATION });
    const r1 = await wizard(a.url, {});
    const r2 = await wizard(b.url, { requestState: r1.body.result.requestState, inputResponses: { name: { action: "accept", content: { name: "Lin" } } } });
    const r3 = await wizard(a.url, { requestState: r2.body.result.requestState, inputResponses: { color: { action: "accept", content: { color: "blue" } } } });
    const r4 = await wizard(b.url, { requestState: r3.body.result.requestState, inputResponses: { size: { action: "accept", content: { size: 3 } } } });
    expect(r4.body.result.content[0].text).toBe("All set, Lin: a blue one, size 3.");
    await Promise.all([a.stop(), b.stop()]);
  });

  it("refuses states between instances with different secrets", async () => {
    const [a, b] = await Promise.all([startServer({ env: { NITRO_MCP_STATE_SECRET: OLD } }), startServer({ env: { NITRO_MCP_STATE_SECRET: NEW } })]);
    const state = await askToDelete(a.url, "7");
    expectOpaqueRejection(await retryDelete(b.url, "7", state));
    expect(b.logs()).toMatch(/unknown key id/);
    await Promise.all([a.stop(), b.stop()]);
  });

  it("opens states of a previous secret while it is listed, and refuses them once it is dropped", async () => {
    const before = await startServer({ env: { NITRO_MCP_STATE_SECRET: OLD } });
    const state = await askToDelete(before.url, "7");
    await before.stop();

    const rotated = await startServer({ env: { NITRO_MCP_STATE_SECRET: NEW, NITRO_MCP_STATE_SECRET_PREVIOUS: OLD } });
    const done = await retryDelete(rotated.url, "7", state);
    expect(done.body.result.content[0].text).toMatch(/^Deleted note 7/);
    // New states are sealed with the new key only.
    const fresh = await askToDelete(rotated.url, "12");
    await rotated.stop();

    const dropped = await startServer({ env: { NITRO_MCP_STATE_SECRET: NEW } });
    expectOpaqueRejection(await retryDelete(dropped.url, "12", state));
    const stillValid = await retryDelete(dropped.url, "12", fresh);
    expect(stillValid.body.result.content[0].text).toMatch(/^Deleted note 12/);
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
    const plain = await post(server.url, "tools/call", { name: "add", arguments: { a: 1, b: 1 } });
    expect(plain.body.result.structuredContent).toEqual({ sum: 2 });
    const asking = await post(server.url, "tools/call", { name: "delete_note", arguments: { note_id: "7" } }, { capabilities: ELICITATION });
    expect(asking.status).toBe(500);
    expect(asking.body.error).toEqual({ code: -32603, message: expect.stringContaining("NITRO_MCP_STATE_SECRET") });
    expect(server.logs()).toMatch(/NITRO_MCP_STATE_SECRET is not set/);
    await server.stop();
  });
});
