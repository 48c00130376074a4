/**
 * `issueToken` and `redeemToken` (the apps feature's `#mcp-apps`, tokens.ts), through the fixture `token_action`: a token redeems once,
 * for its purpose and its caller, before it expires; whatever else is presented is refused alike (the reason logged).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestServer, type TestClient, type TestServer } from "../../helpers/in-process";
import { hasFeature } from "../../helpers/project.mjs";
import { askToIncrement, expectOpaqueRejection, retryIncrement, uniqueKey } from "./flows";

const DEFINITIONS = { definitions: ["tests/fixtures-apps/tools/token_action.ts"] };

async function issue(client: TestClient, purpose: string, extra: object = {}, headers = {}): Promise<unknown> {
  const result = await client.request(
    "tools/call",
    { name: "token_action", arguments: { purpose, ...extra } },
    { headers },
  );
  return result.body.result.structuredContent?.token;
}

async function redeem(client: TestClient, purpose: string, token: unknown, headers = {}): Promise<string> {
  const result = await client.request(
    "tools/call",
    { name: "token_action", arguments: { purpose, token } },
    { headers },
  );
  return result.body.result.content[0].text;
}

afterEach(() => vi.useRealTimers());

describe("single-use tokens", () => {
  let server: TestServer;
  const start = async () => {
    server = await createTestServer(DEFINITIONS);
    return server.connect();
  };

  it("redeem once, for their own purpose only", async () => {
    const client = await start();
    const token = await issue(client, "delete note 7");
    expect(token).toMatch(/^v1\./);
    expect(await redeem(client, "delete note 12", token)).toBe("refused");
    await expect.poll(() => server.logs()).toMatch(/single-use token refused: .*/);
    // Refused for another purpose, it is not spent for its own.
    expect(await redeem(client, "delete note 7", token)).toBe("redeemed");
    expect(await redeem(client, "delete note 7", token)).toBe("refused");
    await expect.poll(() => server.logs()).toMatch(/single-use token refused: redeemed before/);
  });

  it.each([
    ["a flipped byte", (token: string) => token.slice(0, 40) + (token[40] === "A" ? "B" : "A") + token.slice(41)],
    ["a number", () => 12345],
    ["an object", () => ({ token: "v1" })],
    ["an empty string", () => ""],
  ])("refuse %s", async (_name, tamper) => {
    const client = await start();
    const token = (await issue(client, "delete note 7")) as string;
    expect(await redeem(client, "delete note 7", tamper(token))).toBe("refused");
    expect(await redeem(client, "delete note 7", token)).toBe("redeemed");
  });

  it("refuse a token once it expired", async () => {
    const client = await start();
    const token = await issue(client, "delete note 7", { ttl_seconds: 60 });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 120_000 });
    expect(await redeem(client, "delete note 7", token)).toBe("refused");
    await expect.poll(() => server.logs()).toMatch(/single-use token refused: .*expired/);
  });

  it.each([0, -5, 0.5, 86_401])("are not issued for %s seconds: the author's mistake is logged", async (ttl) => {
    const client = await start();
    const result = await client.request("tools/call", {
      name: "token_action",
      arguments: { purpose: "p", ttl_seconds: ttl },
    });
    expect(result.body.result.isError).toBe(true);
    await expect
      .poll(() => server.logs())
      .toContain(`issueToken: ttlSeconds must be a whole number from 1 to 86400, not ${ttl}`);
  });

  it("never open as a requestState, nor a requestState as a token", async () => {
    server = await createTestServer({
      definitions: ["tests/fixtures-apps/tools/token_action.ts", "tests/fixtures/tools/confirm_increment.ts"],
    });
    const client = server.connect();
    const key = uniqueKey();
    const state = await askToIncrement(client, key);
    expect(await redeem(client, "p", state)).toBe("refused");
    const token = await issue(client, "p");
    expectOpaqueRejection(await retryIncrement(client, key, token));
    expect(await redeem(client, "p", token)).toBe("redeemed");
  });

  it("are not issued where the server cannot seal (no secret)", async () => {
    server = await createTestServer({ ...DEFINITIONS, env: { NITRO_MCP_STATE_SECRET: "" } });
    const client = server.connect();
    expect(await issue(client, "delete note 7")).toBeUndefined();
  });

  it.runIf(hasFeature("sign-in"))("refuse another caller's token", async () => {
    server = await createTestServer({
      ...DEFINITIONS,
      env: { NITRO_MCP_AUTH_TOKENS: "alice:alice-token-123,bob:bob-token-456" },
    });
    const client = server.connect();
    const [alice, bob] = [{ authorization: "Bearer alice-token-123" }, { authorization: "Bearer bob-token-456" }];
    const token = await issue(client, "delete note 7", {}, alice);
    expect(await redeem(client, "delete note 7", token, bob)).toBe("refused");
    expect(await redeem(client, "delete note 7", token, alice)).toBe("redeemed");
  });
});
