/**
 * One caller never uses up what every caller shares (server/mcp/README.md, "Security"): each caller — a principal, or an
 * anonymous address (an IPv6 one by its /64), told apart here by `X-Forwarded-For` through one trusted proxy — holds at
 * most its share of open streams and bus subscriptions on an instance, and of task slots across instances; past it, it
 * gets 429 (JSON-RPC and HTTP) naming the limit, while the next caller is served as if nothing happened. Also: one deadline for every
 * stream, and forwarded headers honoured only from a trusted proxy. Over real HTTP, with real addresses:
 * tests/targets/caller-addresses.test.ts; 2025-era streams and questions: legacy-shares.test.ts.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { createTestServer, type TestServer } from "../../helpers/in-process";
import { hasFeature } from "../../helpers/project.mjs";
import { openListen } from "../../helpers/rpc";
import { WITH_TASKS } from "../../helpers/tasks";
import { FIXTURES } from "./flows";

const LIMIT_EXCEEDED = 429;
const from = (address: string) => ({ "x-forwarded-for": address });

const listen = (server: TestServer, uris: string[], address: string) =>
  openListen(
    (request) => server.stream(request),
    "http://localhost/mcp",
    { resourceSubscriptions: uris },
    from(address),
  );

describe.runIf(hasFeature("message-bus"))("each caller's share of listen streams and bus subscriptions", () => {
  const start = (env: Record<string, string> = {}) =>
    createTestServer({ ...FIXTURES, env: { NITRO_MCP_TRUST_PROXY: "1", ...env } });

  it("refuses a caller's stream past its share with 429 naming the limit, while another caller listens to the same URI", async () => {
    const server = await start({ NITRO_MCP_CALLER_STREAMS: "3" });
    const uri = "fixture://items/3";
    const held = await Promise.all([1, 2, 3].map(() => listen(server, [uri], "192.0.2.1")));
    expect(held.map(({ first }) => first?.params.notifications)).toEqual(
      held.map(() => ({ resourceSubscriptions: [uri] })),
    );
    const over = await listen(server, [uri], "192.0.2.1");
    expect(over.response.status).toBe(429);
    expect(over.first).toMatchObject({
      id: over.id,
      error: { code: LIMIT_EXCEEDED, data: { limit: 3, share: "streams" } },
    });
    expect(over.first?.error.message).toContain("NITRO_MCP_CALLER_STREAMS");
    const other = await listen(server, [uri], "192.0.2.2");
    expect(other.first?.params.notifications).toEqual({ resourceSubscriptions: [uri] });
    // A stream closed gives its share back.
    await held[0]!.stream.close();
    await expect
      .poll(async () => {
        const again = await listen(server, [uri], "192.0.2.1");
        await again.stream.close();
        return again.first?.params?.notifications;
      })
      .toEqual({ resourceSubscriptions: [uri] });
    await Promise.all([...held.slice(1), other].map(({ stream }) => stream.close()));
  });

  it("refuses a listen that would take a caller past its share of subscriptions: nothing is acknowledged, nothing held", async () => {
    const server = await start({ NITRO_MCP_CALLER_SUBSCRIPTIONS: "4" });
    const uris = (from: number) => [0, 1, 2].map((n) => `fixture://items/${from + n}`);
    const first = await listen(server, uris(1), "192.0.2.1");
    expect(first.first?.params.notifications.resourceSubscriptions).toHaveLength(3);
    const over = await listen(server, uris(4), "192.0.2.1");
    expect(over.response.status).toBe(429);
    expect(over.first?.error).toMatchObject({ code: LIMIT_EXCEEDED, data: { limit: 4, share: "subscriptions" } });
    // The refused listen held nothing: one more URI still fits this caller's share.
    const one = await listen(server, ["fixture://items/9"], "192.0.2.1");
    expect(one.first?.params.notifications).toEqual({ resourceSubscriptions: ["fixture://items/9"] });
    const other = await listen(server, uris(1), "192.0.2.2");
    expect(other.first?.params.notifications.resourceSubscriptions).toHaveLength(3);
    await Promise.all([first, one, other].map(({ stream }) => stream.close()));
  });

  it("counts an IPv4-mapped address as its IPv4 address, and every address of an IPv6 /64 as one caller", async () => {
    const server = await start({ NITRO_MCP_CALLER_STREAMS: "2" });
    const uri = "fixture://items/4";
    const v4 = [await listen(server, [uri], "192.0.2.7"), await listen(server, [uri], "::ffff:192.0.2.7")];
    expect((await listen(server, [uri], "192.0.2.7")).response.status).toBe(429);
    const v6 = [
      await listen(server, [uri], "2001:db8:1:2::1"),
      await listen(server, [uri], "[2001:db8:1:2:ffff::9]:443"),
    ];
    expect(v6.map(({ first }) => first?.params.notifications)).toEqual(
      v6.map(() => ({ resourceSubscriptions: [uri] })),
    );
    expect((await listen(server, [uri], "2001:db8:1:2:abcd::1")).response.status).toBe(429);
    // The next /64 is another caller.
    const next = await listen(server, [uri], "2001:db8:1:3::1");
    expect(next.first?.params.notifications).toEqual({ resourceSubscriptions: [uri] });
    await Promise.all([...v4, ...v6, next].map(({ stream }) => stream.close()));
  });

  it("keys IPv6 callers by NITRO_MCP_IPV6_PREFIX", async () => {
    const server = await start({ NITRO_MCP_CALLER_STREAMS: "1", NITRO_MCP_IPV6_PREFIX: "128" });
    const uri = "fixture://items/5";
    const open = [await listen(server, [uri], "2001:db8::1"), await listen(server, [uri], "2001:db8::2")];
    expect(open.map(({ response }) => response.status)).toEqual([200, 200]);
    await Promise.all(open.map(({ stream }) => stream.close()));
  });

  it.runIf(hasFeature("sign-in"))("gives each signed-in principal its own share, wherever it calls from", async () => {
    const server = await start({
      NITRO_MCP_CALLER_STREAMS: "1",
      NITRO_MCP_AUTH_TOKENS: "alice:alice-token-0123456789,bob:bob-token-0123456789",
    });
    const as = (name: string) => ({ authorization: `Bearer ${name}-token-0123456789`, ...from("192.0.2.1") });
    const open = (name: string) =>
      openListen(
        (request) => server.stream(request),
        "http://localhost/mcp",
        { resourceSubscriptions: ["fixture://about"] },
        as(name),
      );
    const alice = await open("alice");
    expect((await open("alice")).response.status).toBe(429);
    const bob = await open("bob");
    expect(bob.first?.params.notifications).toEqual({ resourceSubscriptions: ["fixture://about"] });
    await Promise.all([alice, bob].map(({ stream }) => stream.close()));
  });
});

describe("one deadline for every stream (NITRO_MCP_STREAM_SECONDS)", () => {
  it.runIf(hasFeature("message-bus"))("ends a listen stream gracefully, with its result, at the deadline", async () => {
    const server = await createTestServer({ ...FIXTURES, env: { NITRO_MCP_STREAM_SECONDS: "1" } });
    const { id, first, stream } = await listen(server, ["fixture://about"], "192.0.2.1");
    expect(first?.method).toBe("notifications/subscriptions/acknowledged");
    expect(await stream.next()).toMatchObject({ id, result: { resultType: "complete" } });
  });

  it.runIf(hasFeature("tasks"))("ends a stream of task notifications at the same deadline", async () => {
    // A heartbeat a second: the task's work hears the cancel below within one, and stops with this test, not in a later file.
    const env = { NITRO_MCP_STREAM_SECONDS: "1", NITRO_MCP_TASK_HEARTBEAT_TIMEOUT_SECONDS: "3" };
    const server = await createTestServer({ ...FIXTURES, env });
    const client = server.connect({ capabilities: WITH_TASKS });
    const created = await client.callTool("counted_job", {
      key: `k-${crypto.randomUUID()}`,
      steps: 100,
      delay_ms: 10_000,
    });
    const taskId = created.taskId as string;
    onTestFinished(async () => void (await client.call("tasks/cancel", { taskId })));
    const { id, stream } = await openListen(
      (request) => server.stream(request),
      "http://localhost/mcp",
      { taskIds: [taskId] },
      {},
      WITH_TASKS,
    );
    let last = await stream.next();
    while (last && !("result" in last)) last = await stream.next();
    expect(last).toMatchObject({ id, result: { resultType: "complete" } });
  });
});

describe.runIf(hasFeature("tasks"))("task slots per caller", () => {
  it("gives each anonymous address its own NITRO_MCP_TASK_MAX_ACTIVE slots", async () => {
    const server = await createTestServer({
      ...FIXTURES,
      env: { NITRO_MCP_TRUST_PROXY: "1", NITRO_MCP_TASK_MAX_ACTIVE: "2" },
    });
    const job = (address: string) =>
      server
        .connect({ capabilities: WITH_TASKS, headers: from(address) })
        .callTool("counted_job", { key: `k-${crypto.randomUUID()}`, steps: 1, ask: true });
    const held = [await job("192.0.2.1"), await job("192.0.2.1")];
    expect(held.map((task) => task.status)).toEqual(["working", "working"]);
    const over = await job("192.0.2.1");
    expect(over.isError).toBe(true);
    expect(over.content).toEqual([{ type: "text", text: expect.stringMatching(/Too many active tasks/) }]);
    const other = await job("192.0.2.2");
    expect(other.status).toBe("working");
  });
});

describe.runIf(hasFeature("front-page"))("forwarded headers, only from a trusted proxy", () => {
  const card = async (env: Record<string, string>, scheme = "https") => {
    const server = await createTestServer({ ...FIXTURES, env });
    const response = await server.fetch(
      new Request("http://localhost/mcp/server-card", { headers: { "x-forwarded-proto": scheme } }),
    );
    return (await response.json()) as { remotes: { url: string }[] };
  };

  it("builds the server card's URL from the socket's scheme when no proxy is trusted, whatever the client says", async () => {
    expect((await card({})).remotes[0]!.url).toBe("http://localhost/mcp");
  });

  it("takes the scheme a trusted proxy forwards", async () => {
    expect((await card({ NITRO_MCP_TRUST_PROXY: "1" })).remotes[0]!.url).toBe("https://localhost/mcp");
  });

  it("takes only http or https from it: a proxy that passes on what the client wrote cannot put a URL of its choosing in the card", async () => {
    const forged = await card({ NITRO_MCP_TRUST_PROXY: "1" }, "https://evil.example/phish?x=");
    expect(forged.remotes[0]!.url).toBe("http://localhost/mcp");
  });
});

describe.runIf(hasFeature("rate-limit"))("the requests a host needs to connect, a budget of their own", () => {
  const server = () =>
    createTestServer({ ...FIXTURES, env: { NITRO_MCP_RATE_LIMIT: "3/1h", NITRO_MCP_RATE_LIMIT_CONNECT: "6/1h" } });
  // Raw tools/call requests: the client's callTool would list the tools first, a request to connect.
  const spend = async (client: ReturnType<TestServer["connect"]>) => {
    const call = () => client.request("tools/call", { name: "structured_sum", arguments: { a: 1, b: 2 } });
    const statuses = [];
    for (let n = 0; n < 4; n++) statuses.push((await call()).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  };

  it("lets a 2026-07-28 client whose calls used up NITRO_MCP_RATE_LIMIT still discover and list, within its own budget", async () => {
    const client = (await server()).connect();
    await spend(client);
    const connect = [
      await client.request("server/discover"),
      await client.request("tools/list"),
      await client.request("prompts/list"),
      await client.request("resources/list"),
      await client.request("resources/templates/list"),
      await client.request("tools/list"),
      await client.request("tools/list"),
    ];
    expect(connect.map(({ status }) => status)).toEqual([200, 200, 200, 200, 200, 200, 429]);
    expect(connect[6]!.body.error.message).toMatch(/requests to connect/);
    expect(connect[6]!.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it.runIf(hasFeature("legacy"))(
    "lets a 2025-era host reconnect (initialize, initialized, tools/list) after its tool calls used up the budget",
    async () => {
      const instance = await server();
      await spend(instance.connect({ era: "2025-11-25" }));
      const legacy = { "content-type": "application/json", accept: "application/json, text/event-stream" };
      const initialize = await instance.post(
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "host", version: "1" } },
        },
        legacy,
      );
      expect(initialize.status).toBe(200);
      const session = {
        ...legacy,
        "mcp-protocol-version": "2025-11-25",
        "mcp-session-id": initialize.headers.get("mcp-session-id")!,
      };
      const initialized = await instance.post({ jsonrpc: "2.0", method: "notifications/initialized" }, session);
      expect(initialized.status).toBe(202);
      const list = await instance.post({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }, session);
      expect(list.status).toBe(200);
      expect(list.body.result.tools.length).toBeGreaterThan(0);
      const call = await instance.post(
        { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "structured_sum", arguments: { a: 1, b: 2 } } },
        session,
      );
      expect(call.status).toBe(429);
    },
  );

  /**
   * Sends a body that fails to parse until one is refused: how many were sent. Each is counted once answered, so the
   * refusal comes some requests after the count that earns it, however long the counting takes.
   */
  const junkUntilRefused = async (instance: TestServer) => {
    let sent = 0;
    const junk = () => {
      sent++;
      return instance.post('{"jsonrpc":"2.0","id":1,', { "content-type": "application/json" });
    };
    await expect.poll(async () => (await junk()).status, { timeout: 15_000, interval: 20 }).toBe(429);
    return { sent, junk };
  };

  it("counts a body that fails to parse against both budgets, and once both refuse, reads no body at all", async () => {
    const { sent, junk } = await junkUntilRefused(await server());
    // Both budgets were counted first: the requests' (3) refuses from the fourth, the one to connect (6) from the seventh.
    expect(sent).toBeGreaterThanOrEqual(8);
    const refused = await junk();
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/^Rate limit exceeded \(requests, and requests to connect\)/);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("with NITRO_MCP_RATE_LIMIT_CONNECT=off, counts a body that fails to parse, and once refused, reads no body", async () => {
    const env = { NITRO_MCP_RATE_LIMIT: "3/1h", NITRO_MCP_RATE_LIMIT_CONNECT: "off" };
    const { sent } = await junkUntilRefused(await createTestServer({ ...FIXTURES, env }));
    // The budget (3) refuses from the fourth once counted; only then is a body refused unread.
    expect(sent).toBeGreaterThanOrEqual(5);
  });

  it.runIf(hasFeature("legacy"))(
    "lets a 2025-era host reconnect however many of its tool calls were refused",
    async () => {
      const instance = await server();
      const legacy = { "content-type": "application/json", accept: "application/json, text/event-stream" };
      const call = (id: number) =>
        instance.post(
          { jsonrpc: "2.0", id, method: "tools/call", params: { name: "structured_sum", arguments: { a: 1, b: 2 } } },
          { ...legacy, "mcp-protocol-version": "2025-11-25" },
        );
      const calls = [];
      for (let id = 1; id <= 10; id++) calls.push((await call(id)).status);
      expect(calls).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
      const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "host", version: "1" } };
      expect((await instance.post({ jsonrpc: "2.0", id: 11, method: "initialize", params }, legacy)).status).toBe(200);
    },
  );

  it.runIf(hasFeature("legacy"))(
    "counts a 2025-era tool call against the budget of calls, whatever its Mcp-Method header says",
    async () => {
      const instance = await server();
      const claimsPing = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-method": "ping",
      };
      const call = (id: number) =>
        instance.post(
          { jsonrpc: "2.0", id, method: "tools/call", params: { name: "structured_sum", arguments: { a: 1, b: 2 } } },
          { ...claimsPing, "mcp-protocol-version": "2025-11-25" },
        );
      const results = [];
      for (let id = 1; id <= 5; id++) results.push(await call(id));
      expect(results.map(({ status }) => status)).toEqual([200, 200, 200, 429, 429]);
      expect(results[3]!.body.error.message).toMatch(/^Rate limit exceeded \(requests\)/);
    },
  );
});
