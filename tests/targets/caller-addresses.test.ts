/**
 * Anonymous callers told apart by the address their connection really comes from (the client side bound to 127.0.0.2 and
 * 127.0.0.3), over real HTTP to the Node build: each address its own rate-limit budget, its own share of open streams and
 * of request bodies still arriving, and a client reaching a dual-stack instance (which sees `::ffff:127.0.0.2`) and an IPv4
 * one (`127.0.0.2`) counted as one caller across them. In-process, by X-Forwarded-For: tests/unit/protocol/fair-shares.test.ts.
 */
import { request } from "node:http";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { hasFeature } from "../helpers/project.mjs";
import { type Json, meta, parseSse, standardHeaders } from "../helpers/rpc";
import { startServer } from "../helpers/server.mjs";
import { startRedis, NEEDS_REDIS } from "./redis.mjs";

const LIMIT_EXCEEDED = 429;

/** Whether this machine's loopback answers on 127.0.0.2 (Linux: all of 127/8; macOS: only 127.0.0.1 unless aliased). */
const loopbackAliases = await new Promise<boolean>((resolve) => {
  const probe = createServer();
  probe.once("error", () => resolve(false));
  probe.listen(0, "127.0.0.2", () => probe.close(() => resolve(true)));
});

/** One JSON-RPC request to `url` from `localAddress`; with `keepOpen`, the response's first message and the request to end. */
function postFrom(localAddress: string, url: string, method: string, params: Json = {}) {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta() } });
  const target = new URL(url);
  return new Promise<{ status: number; first: Json | undefined; close: () => void }>((resolve, reject) => {
    const sent = request(
      {
        host: "127.0.0.1",
        port: target.port,
        path: target.pathname,
        method: "POST",
        localAddress,
        headers: { ...standardHeaders(method, params), host: target.host },
      },
      (response) => {
        let text = "";
        const close = () => sent.destroy();
        response.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
          // A stream is answered once its first message is in; a JSON body once it ends.
          if (response.headers["content-type"]?.startsWith("text/event-stream") && text.includes("\n\n")) {
            resolve({ status: response.statusCode!, first: parseSse(text)[0], close });
          }
        });
        response.on("end", () => {
          const json = response.headers["content-type"]?.startsWith("application/json");
          resolve({ status: response.statusCode!, first: json ? JSON.parse(text) : parseSse(text)[0], close });
        });
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}

/** A POST from `localAddress` that sends the first bytes of its body and then nothing; `abort` goes away with it. */
function stallFrom(localAddress: string, url: string) {
  const target = new URL(url);
  const sent = request({
    host: "127.0.0.1",
    port: target.port,
    path: target.pathname,
    method: "POST",
    localAddress,
    headers: { ...standardHeaders("tools/list"), host: target.host, "content-length": "100000" },
  });
  sent.on("error", () => {}); // aborted below, by the test
  sent.write('{"jsonrpc":"2.0","id":1,');
  return { abort: () => sent.destroy() };
}

const sum = (from: string, url: string) =>
  postFrom(from, url, "tools/call", { name: "structured_sum", arguments: { a: 1, b: 2 } });

describe.runIf(loopbackAliases)("anonymous callers by the address of their connection", () => {
  it.runIf(hasFeature("rate-limit"))("gives 127.0.0.2 and 127.0.0.3 a budget each", async () => {
    const server = await startServer({ env: { NITRO_MCP_RATE_LIMIT: "2/1h" } });
    try {
      const statuses = async (from: string, count: number) => {
        const results = [];
        for (let n = 0; n < count; n++) results.push(await sum(from, server.url));
        return results.map(({ status }) => status);
      };
      expect(await statuses("127.0.0.2", 3)).toEqual([200, 200, 429]);
      expect(await statuses("127.0.0.3", 3)).toEqual([200, 200, 429]);
    } finally {
      await server.stop();
    }
  });

  // with:redis
  it.runIf(hasFeature("rate-limit"))(
    "counts a client as one caller on a dual-stack instance and an IPv4 one sharing Redis",
    { ...NEEDS_REDIS, timeout: 60_000 },
    async () => {
      const redis = await startRedis();
      const env = { NITRO_MCP_RATE_LIMIT: "2/1h", REDIS_URL: redis.url };
      const [dualStack, ipv4] = await Promise.all([startServer({ env: { ...env, HOST: "::" } }), startServer({ env })]);
      try {
        const dualStackUrl = `http://127.0.0.1:${new URL(dualStack.url.replace("[::]", "127.0.0.1")).port}/mcp`;
        const results = [
          await sum("127.0.0.2", dualStackUrl),
          await sum("127.0.0.2", ipv4.url),
          await sum("127.0.0.2", dualStackUrl),
          await sum("127.0.0.2", ipv4.url),
        ];
        expect(results.map(({ status }) => status)).toEqual([200, 200, 429, 429]);
        expect(results[2]!.first?.error.code).toBe(LIMIT_EXCEEDED);
      } finally {
        await Promise.all([dualStack.stop(), ipv4.stop()]);
        await redis.stop();
      }
    },
  );
  // end with:redis

  it("holds each address to its share of request bodies still arriving: 127.0.0.2's stalled bodies leave 127.0.0.3 served", async () => {
    const server = await startServer({ env: { NITRO_MCP_CALLER_BODIES: "2", NITRO_MCP_BODY_TIMEOUT_MS: "600000" } });
    const stalled = [stallFrom("127.0.0.2", server.url), stallFrom("127.0.0.2", server.url)];
    // Over 64 KiB, more than one socket read: not whole with its first bytes, it takes a unit of its caller's share.
    const long = (from: string) => postFrom(from, server.url, "tools/list", { padding: "x".repeat(70_000) });
    try {
      // Refused once both stalled bodies are being read (a bound on "ever": how soon they are depends on the machine).
      await expect.poll(async () => (await long("127.0.0.2")).status, { timeout: 30_000 }).toBe(429);
      const over = await long("127.0.0.2");
      expect(over.first?.error).toMatchObject({ code: LIMIT_EXCEEDED, data: { limit: 2, share: "bodies" } });
      expect(over.first?.error.message).toContain("NITRO_MCP_CALLER_BODIES");
      // A short body, whole with its first bytes, takes none; another address has its own share.
      expect((await sum("127.0.0.2", server.url)).status).toBe(200);
      expect((await long("127.0.0.3")).status).toBe(200);
      // A client gone mid-body gives its share back.
      for (const body of stalled) body.abort();
      await expect.poll(async () => (await long("127.0.0.2")).status, { timeout: 30_000 }).toBe(200);
    } finally {
      for (const body of stalled) body.abort();
      await server.stop();
    }
  });

  it.runIf(hasFeature("message-bus"))(
    "holds each address to its share of open streams: 127.0.0.2's full share leaves 127.0.0.3 listening",
    async () => {
      const server = await startServer({ env: { NITRO_MCP_CALLER_STREAMS: "2" } });
      const listen = (from: string) =>
        postFrom(from, server.url, "subscriptions/listen", {
          notifications: { resourceSubscriptions: ["fixture://about"] },
        });
      try {
        const held = [await listen("127.0.0.2"), await listen("127.0.0.2")];
        expect(held.map(({ first }) => first?.method)).toEqual([
          "notifications/subscriptions/acknowledged",
          "notifications/subscriptions/acknowledged",
        ]);
        const over = await listen("127.0.0.2");
        expect(over.status).toBe(429);
        expect(over.first?.error).toMatchObject({ code: LIMIT_EXCEEDED, data: { limit: 2, share: "streams" } });
        const other = await listen("127.0.0.3");
        expect(other.first?.params?.notifications, JSON.stringify(other.first)).toEqual({
          resourceSubscriptions: ["fixture://about"],
        });
        for (const stream of [...held, other]) stream.close();
      } finally {
        await server.stop();
      }
    },
  );
});
