/**
 * Streamable HTTP at 2026-07-28, through raw fetch against the built server, where the runtime matters:
 * body limits in each framing, SSE, cancellation on disconnect, the Host guard on a loopback socket, an empty
 * Origin (which only a real socket carries), the router. Every other rule (envelope, `_meta`, mirrored headers, methods, Origin and CORS, pagination) is
 * tested in-process, in tests/unit/protocol/transport.test.ts.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeProgressCall, meta, post, standardHeaders } from "../helpers/rpc";
import { startServer, type RunningServer } from "../helpers/server.mjs";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ env: { NITRO_MCP_MAX_BODY_BYTES: "4096" } });
});
afterAll(() => server.stop());

const rawPost = (body: string, headers: Record<string, string> = standardHeaders("tools/list")) =>
  fetch(server.url, { method: "POST", headers, body });

describe("envelope", () => {
  it("refuses a body over the limit with 413 before parsing it", async () => {
    const response = await rawPost(JSON.stringify({ padding: "x".repeat(5000) }));
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe(-32600);
  });

  it("refuses a chunked body over the limit with 413", async () => {
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode("x".repeat(1000)));
        controller.close();
      },
    });
    const response = await fetch(server.url, {
      method: "POST",
      headers: standardHeaders("tools/list"),
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it("serves /mcp/ like /mcp", async () => {
    const response = await fetch(`${server.url}/`, {
      method: "POST",
      headers: standardHeaders("server/discover"),
      body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "server/discover", params: { _meta: meta() } }),
    });
    expect(response.status).toBe(200);
    expect((await response.json()).result.resultType).toBe("complete");
  });
});

describe("subscriptions/listen", () => {
  it("acknowledges subscriptions/listen first, honouring nothing, tagged with its id, then ends it gracefully", async () => {
    const result = await post(
      server.url,
      "subscriptions/listen",
      { notifications: { toolsListChanged: true } },
      { id: "sub-1" },
    );
    expect(result.status).toBe(200);
    expect(result.type).toBe("text/event-stream");
    const tag = { "io.modelcontextprotocol/subscriptionId": "sub-1" };
    expect(result.messages).toEqual([
      { jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { _meta: tag, notifications: {} } },
      {
        jsonrpc: "2.0",
        id: "sub-1",
        result: expect.objectContaining({ resultType: "complete", _meta: expect.objectContaining(tag) }),
      },
    ]);
  });
});

describe("streaming and cancellation", () => {
  it("streams progress as SSE, then the result, and ends the stream", async () => {
    const result = await post(
      server.url,
      "tools/call",
      { name: "progress_steps", arguments: { steps: 3, delay_ms: 10 } },
      { metaExtra: { progressToken: "p-1" } },
    );
    expect(result.type).toBe("text/event-stream");
    expect(result.headers.get("x-accel-buffering")).toBe("no");
    const progress = result.messages.filter((message) => message.method === "notifications/progress");
    expect(progress.map((message) => message.params.progress)).toEqual([0, 1, 2, 3]);
    expect(progress.every((message) => message.params.progressToken === "p-1")).toBe(true);
    expect(result.messages.at(-1)).toEqual(result.body);
    expect(result.body.result.content[0].text).toBe("done");
  });

  it("sends log messages at or above the requested level only", async () => {
    const call = (level: string) =>
      post(
        server.url,
        "tools/call",
        { name: "progress_steps", arguments: { steps: 2, delay_ms: 1 } },
        { metaExtra: { "io.modelcontextprotocol/logLevel": level } },
      );
    const debug = await call("debug");
    expect(debug.messages.filter((message) => message.method === "notifications/message")).toHaveLength(2);
    const info = await call("info");
    expect(info.messages.some((message) => message.method === "notifications/message")).toBe(false);
  });

  it("cancels the handler when the client closes the stream", async () => {
    await closeProgressCall(server.url, 77, { delayMs: 100 });
    // Only a cancelled run writes this line (a finished one would not), so the wait may be generous.
    await expect.poll(() => server.logs()).toMatch(/\[fixture\] progress_steps cancelled during step \d+ of 100/);
  });

  it("cancels a handler that sent nothing yet (its answer would be JSON) when the client goes away", async () => {
    const controller = new AbortController();
    const reply = fetch(server.url, {
      method: "POST",
      headers: standardHeaders("tools/call", { name: "progress_steps" }),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 78,
        method: "tools/call",
        params: { name: "progress_steps", arguments: { steps: 99, delay_ms: 100 }, _meta: meta() },
      }),
      signal: controller.signal,
    });
    await expect.poll(() => server.logs()).toMatch(/\[fixture\] progress_steps started: 99 steps/);
    controller.abort();
    await expect(reply).rejects.toThrow();
    await expect.poll(() => server.logs()).toMatch(/\[fixture\] progress_steps cancelled during step \d+ of 99/);
  });
});

describe("Host", () => {
  /** A discover request's status with these headers over node:http: fetch sends the URL's own Host whatever it is given. */
  const statusWith = (headers: Record<string, string> = {}) =>
    new Promise<number | undefined>((resolve, reject) => {
      const sent = { ...standardHeaders("server/discover", {}), host: new URL(server.url).host, ...headers };
      request(server.url, { method: "POST", headers: sent }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on("error", reject)
        .end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta() } }));
    });

  it("refuses a rebinding Host on a loopback server with 403", async () => {
    expect(await statusWith({ host: "evil.example.com", origin: "http://evil.example.com" })).toBe(403);
  });

  it("judges each request's Host, whatever the one before it was", async () => {
    expect(await statusWith()).toBe(200);
    expect(await statusWith({ host: "evil.example.com" })).toBe(403);
    expect(await statusWith({ host: "evil.example.com" })).toBe(403);
    expect(await statusWith({ host: "bad host" })).toBe(400);
    expect(await statusWith()).toBe(200);
    expect(await statusWith({ host: "127.0.0.1" })).toBe(200);
  });
});

describe("Origin", () => {
  it("with every origin allowed, an empty Origin gets no CORS headers: its preflight is the route's 405", async () => {
    const open = await startServer({ env: { NITRO_MCP_ALLOWED_ORIGINS: "*" } });
    try {
      const response = await new Promise<{ status?: number; allowOrigin?: string | string[] }>((resolve, reject) => {
        const headers = { origin: "", "access-control-request-method": "POST" };
        request(open.url, { method: "OPTIONS", headers }, (res) => {
          res.resume();
          resolve({ status: res.statusCode, allowOrigin: res.headers["access-control-allow-origin"] });
        })
          .on("error", reject)
          .end();
      });
      expect(response).toEqual({ status: 405, allowOrigin: undefined });
    } finally {
      await open.stop();
    }
  });
});
