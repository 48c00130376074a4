/**
 * Rate limits over real HTTP: exact under 200 concurrent requests (the number served equals the
 * limit) in memory, across two Node instances sharing Redis (directly, and through Upstash's REST
 * API, stood in for locally), and on each other store the template ships (each store's case marked for its part);
 * a definition's limit counted apart from the global one; the 429 (Retry-After, JSON-RPC 429)
 * for 2026-07-28 and 2025-era clients; anonymous callers keyed by address, X-Forwarded-For only
 * when trusted; and a Redis outage served or refused as NITRO_MCP_RATE_LIMIT_ON_STORE_ERROR says.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, type RpcOptions } from "../helpers/rpc";
import { hasFeature } from "../helpers/project.mjs";
import { startServer, type RunningServer } from "../helpers/server.mjs";
import { startWorker } from "../helpers/worker.mjs";
import { startInstancesOnRedis, startRedis, NEEDS_REDIS } from "./redis.mjs";
import { startUpstashStandIn } from "./upstash.mjs";

const CONCURRENT = 200;
const LIMIT = 50;
const RATE_LIMITED = 429;
const TOKENS = "alice:alice-token-0123456789,bob:bob-token-0123456789,carol:carol-token-0123456789";
const as = (who: "alice" | "bob"): RpcOptions => ({ headers: { authorization: `Bearer ${who}-token-0123456789` } });

const sum = (url: string, options?: RpcOptions) =>
  post(url, "tools/call", { name: "structured_sum", arguments: { a: 1, b: 2 } }, options);
const echo = (url: string, options?: RpcOptions) =>
  post(url, "tools/call", { name: "limited_echo", arguments: { text: "hi" } }, options);

/** The headers of a 2025-era request: no mirrored ones, the version in MCP-Protocol-Version (no initialize needed). */
const legacyHeaders = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
};

/** A 2025-era request: no `_meta`, no mirrored headers, the version in MCP-Protocol-Version (no initialize needed). */
const legacyCall = (
  url: string,
  name: string,
  args: Record<string, unknown>,
  extraHeaders: Record<string, string> = {},
) =>
  post(
    url,
    "tools/call",
    { name, arguments: args },
    {
      noMeta: true,
      rawHeaders: { ...legacyHeaders, ...extraHeaders },
    },
  );

/** Fires CONCURRENT calls at once, spread over `urls`; returns how many were served and how many refused 429. */
async function burst(urls: string[]) {
  const results = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => sum(urls[i % urls.length]!)));
  const served = results.filter(
    (result) => result.status === 200 && result.body.result?.structuredContent?.sum === 3,
  ).length;
  const refused = results.filter((result) => result.status === 429 && result.body.error?.code === RATE_LIMITED).length;
  return { served, refused };
}

const global = { NITRO_MCP_RATE_LIMIT: `${LIMIT}/1h` };

describe("exact under concurrency: 200 requests at once, a limit of 50", () => {
  it("in memory, on one Node instance", async () => {
    const server = await startServer({ env: global });
    expect(await burst([server.url])).toEqual({ served: LIMIT, refused: CONCURRENT - LIMIT });
    await server.stop();
  });

  // with:redis
  it("on Redis, across two Node instances", { ...NEEDS_REDIS, timeout: 60_000 }, async () => {
    const instances = await startInstancesOnRedis(global);
    expect(await burst([instances.a.url, instances.b.url])).toEqual({ served: LIMIT, refused: CONCURRENT - LIMIT });
    await instances.stop();
  });

  it("on Upstash's REST API (a local stand-in over a real Redis), across two Node instances", {
    ...NEEDS_REDIS,
    timeout: 60_000,
  }, async () => {
    const redis = await startRedis();
    const upstash = await startUpstashStandIn(redis.url);
    const env = { ...global, UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token };
    const [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
    expect(await burst([a.url, b.url])).toEqual({ served: LIMIT, refused: CONCURRENT - LIMIT });
    expect(upstash.commands().filter((command) => command === "eval").length).toBe(CONCURRENT);
    await Promise.all([a.stop(), b.stop(), upstash.stop()]);
    await redis.stop();
  });
  // end with:redis

  // with:cloudflare
  describe("on Workers, in workerd, with the Durable Object", () => {
    let worker: RunningServer;
    beforeAll(async () => {
      worker = await startWorker({ env: global });
    }, 90_000);
    afterAll(() => worker?.stop());

    it("serves exactly the limit", async () => {
      expect(await burst([worker.url])).toEqual({ served: LIMIT, refused: CONCURRENT - LIMIT });
    }, 60_000);
  });
  // end with:cloudflare
});

// Callers are told apart by their static tokens, which only the sign-in feature reads.
describe.runIf(hasFeature("sign-in"))("a definition's limit (limited_echo: 3 per hour)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: { NITRO_MCP_RATE_LIMIT: "100/1h", NITRO_MCP_AUTH_TOKENS: TOKENS } });
  });
  afterAll(() => server?.stop());

  it("is counted per caller and apart from the global limit, and refused before the body is read (so without an id) when the headers name it", async () => {
    const calls = await Promise.all(Array.from({ length: 10 }, () => echo(server.url, as("alice"))));
    expect(calls.filter((call) => call.status === 200).length).toBe(3);
    const refused = calls.filter((call) => call.status === 429);
    expect(refused.length).toBe(7);
    for (const call of refused) {
      expect(Number(call.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(call.body).not.toHaveProperty("id");
      expect(call.body).toMatchObject({
        jsonrpc: "2.0",
        error: { code: RATE_LIMITED, data: { limit: 3, windowMs: 3_600_000 } },
      });
      expect(call.body.error.message).toMatch(
        /^Rate limit exceeded \(calls of tool limited_echo\): at most 3 per 3600 s; retry after \d+ s$/,
      );
      expect(call.body.error.data.retryAfterMs).toBeGreaterThan(0);
    }
    // Other tools are limited by the global budget only, and another caller has its own 3.
    expect((await sum(server.url, as("alice"))).status).toBe(200);
    expect((await echo(server.url, as("bob"))).status).toBe(200);
  });

  it.runIf(hasFeature("legacy"))(
    "is counted from the body for a 2025-era client (429 with the request id), whatever Mcp-Name it sends",
    async () => {
      const carol = { authorization: "Bearer carol-token-0123456789" };
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await legacyCall(server.url, "limited_echo", { text: "hi" }, carol)).status);
      expect(statuses).toEqual([200, 200, 200]);
      // Headers naming another tool do not move the count off the tool the body calls.
      const overflow = await legacyCall(
        server.url,
        "limited_echo",
        { text: "hi" },
        { ...carol, "mcp-method": "tools/call", "mcp-name": "structured_sum" },
      );
      expect(overflow.status).toBe(429);
      expect(overflow.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(overflow.body).toMatchObject({
        jsonrpc: "2.0",
        id: overflow.id,
        error: { code: RATE_LIMITED, data: { limit: 3 } },
      });
    },
  );
});

describe("the global limit's 429", () => {
  it("has Retry-After and the JSON-RPC error, for a 2026-07-28 and a 2025-era client alike", async () => {
    const server = await startServer({ env: { NITRO_MCP_RATE_LIMIT: "1/1h" } });
    expect((await sum(server.url)).status).toBe(200);
    const legacy = hasFeature("legacy") ? [await legacyCall(server.url, "structured_sum", { a: 1, b: 2 })] : [];
    // A 2026-07-28 request is refused from its mirrored headers, before its body is read (so without an id); a 2025-era one,
    // which has none, once its body says what it is.
    for (const [refused, id] of [
      [await sum(server.url), undefined],
      ...legacy.map((call) => [call, call.id] as const),
    ] as const) {
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
      expect(refused.body.id).toBe(id);
      expect(refused.body).toMatchObject({
        jsonrpc: "2.0",
        error: {
          code: RATE_LIMITED,
          message: expect.stringMatching(/^Rate limit exceeded \(requests\): at most 1 per 3600 s; retry after \d+ s$/),
        },
      });
    }
    await server.stop();
  });
});

describe("completion's own budget", () => {
  const completion = { ref: { type: "ref/prompt", name: "draft" }, argument: { name: "style", value: "" } };
  const complete = (url: string) => post(url, "completion/complete", completion);
  // A 2025-era client's request, where the template serves that era (no mirrored headers).
  const legacyComplete = (url: string) =>
    post(url, "completion/complete", completion, { noMeta: true, rawHeaders: legacyHeaders });

  it("is on by default, 300 a minute per caller, with no other limit set", async () => {
    // The rate itself is counted below, at 2 an hour: at 300 a minute a request comes back every 200 ms, which a burst of
    // 301 requests on a slow machine may outlast.
    const server = await startServer();
    expect((await complete(server.url)).status).toBe(200);
    await expect.poll(() => server.logs()).toContain("rate limit: 300 completion requests per 60000 ms per caller");
    await server.stop();
  });

  it("counts 2026-07-28 and 2025-era requests alike, refuses past its rate, and leaves other requests alone", async () => {
    const server = await startServer({ env: { NITRO_MCP_RATE_LIMIT_COMPLETION: "2/1h" } });
    const legacy = hasFeature("legacy");
    const served = await complete(server.url);
    expect(served.body.result.completion.values).toEqual(["bullet points", "one sentence", "haiku"]);
    expect((await (legacy ? legacyComplete : complete)(server.url)).status).toBe(200);
    const refusal = {
      code: RATE_LIMITED,
      message: expect.stringMatching(
        /^Rate limit exceeded \(completion requests\): at most 2 per 3600 s; retry after \d+ s$/,
      ),
      data: { limit: 2, windowMs: 3_600_000, retryAfterMs: expect.any(Number) },
    };
    const refused = await complete(server.url);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.body.error).toMatchObject(refusal);
    if (legacy) {
      // The 2025 era answers an error of dispatch in the body, as it does every other (HTTP 200).
      const refusedLegacy = await legacyComplete(server.url);
      expect(refusedLegacy.status).toBe(200);
      expect(refusedLegacy.body).toMatchObject({ id: refusedLegacy.id, error: refusal });
    }
    expect((await sum(server.url)).status).toBe(200);
    await server.stop();
  });

  it("is none with NITRO_MCP_RATE_LIMIT_COMPLETION=off", async () => {
    const server = await startServer({ env: { NITRO_MCP_RATE_LIMIT_COMPLETION: "off" } });
    const statuses = await Promise.all(Array.from({ length: 310 }, async () => (await complete(server.url)).status));
    expect(new Set(statuses)).toEqual(new Set([200]));
    // The plugin logs its limits in one go: once the last is in, completion's would be too.
    await expect.poll(() => server.logs()).toContain("rate limit: tool limited_echo");
    expect(server.logs()).not.toContain("completion requests per");
    await server.stop();
  });
});

describe("anonymous callers, by address", () => {
  const from = (address: string): RpcOptions => ({ headers: { "x-forwarded-for": address } });

  it("X-Forwarded-For is ignored without NITRO_MCP_TRUST_PROXY: one address, one budget", async () => {
    const server = await startServer({ env: { NITRO_MCP_RATE_LIMIT: "2/1h" } });
    const statuses = [];
    for (const address of ["198.51.100.1", "198.51.100.2", "198.51.100.3"])
      statuses.push((await sum(server.url, from(address))).status);
    expect(statuses).toEqual([200, 200, 429]);
    await server.stop();
  });

  it("with NITRO_MCP_TRUST_PROXY=1, the rightmost entry is the caller, and what the client wrote left of it is ignored", async () => {
    const server = await startServer({ env: { NITRO_MCP_RATE_LIMIT: "2/1h", NITRO_MCP_TRUST_PROXY: "1" } });
    const statuses = [];
    for (const address of [
      "198.51.100.1",
      "203.0.113.9, 198.51.100.1",
      "198.51.100.1",
      "198.51.100.2",
      "198.51.100.2",
    ]) {
      statuses.push((await sum(server.url, from(address))).status);
    }
    expect(statuses).toEqual([200, 200, 429, 200, 200]);
    await server.stop();
  });
});

// with:redis
describe("Redis down", NEEDS_REDIS, () => {
  for (const [mode, status] of [
    ["open", 200],
    ["closed", 503],
  ] as const) {
    it(`NITRO_MCP_RATE_LIMIT_ON_STORE_ERROR=${mode}: ${status}`, async () => {
      const redis = await startRedis();
      const server = await startServer({
        env: { REDIS_URL: redis.url, NITRO_MCP_RATE_LIMIT: "100/1h", NITRO_MCP_RATE_LIMIT_ON_STORE_ERROR: mode },
      });
      expect((await sum(server.url)).status).toBe(200);
      await redis.stop();
      const during = await sum(server.url);
      expect(during.status).toBe(status);
      if (mode === "open") expect(during.body.result.structuredContent).toEqual({ sum: 3 });
      else expect(during.body.error).toEqual({ code: -32603, message: "Storage unavailable: try again shortly" });
      await expect
        .poll(() => server.logs())
        .toMatch(
          mode === "open" ? /rate limit: not counting while the store fails/ : /storage unavailable \(consume\)/,
        );
      await server.stop();
    }, 60_000);
  }
});
// end with:redis
