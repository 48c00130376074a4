/**
 * What a hostile client can send, class by class: each gets a spec-shaped JSON-RPC error with the
 * right HTTP status, the connection is answered (no hang), nothing the client sent is echoed back
 * whole, the server logs no uncaught exception, and its memory comes back to its baseline.
 */
import { Agent, request as httpRequest, type ClientRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ELICITATION,
  askToIncrement,
  expectOpaqueRejection,
  readCounter,
  retryIncrement,
  uniqueKey,
} from "../helpers/flows";
import { meta, post, standardHeaders } from "../helpers/rpc";
import { startServer, type RunningServer } from "../helpers/server.mjs";

let server: RunningServer;
beforeAll(async () => {
  // A body timeout far beyond any test here: a slow but complete body (a million one-byte chunks on
  // a busy machine) must be judged on its size, never on the clock. The timeout has its own server below.
  server = await startServer({ nodeArgs: ["--expose-gc"], env: { NITRO_MCP_BODY_TIMEOUT_MS: "600000" } });
});
afterAll(() => server.stop());

/** JSON text of arrays nested `depth` deep (as text: JSON.stringify itself cannot go that deep). */
const nestedJson = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
const nested = (depth: number): unknown => JSON.parse(nestedJson(depth));
const DEEP = "__deep__";

/** Posts `params` with the string DEEP replaced by a value nested 100,000 deep. */
async function postDeep(method: string, params: Record<string, unknown>) {
  const text = JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: { _meta: meta(ELICITATION), ...params } });
  const response = await fetch(server.url, {
    method: "POST",
    headers: standardHeaders(method, params),
    body: text.replace(`"${DEEP}"`, nestedJson(100_000)),
  });
  return { status: response.status, text: await response.text() };
}

/**
 * Writes `chunks` as the socket takes them (waiting for "drain" whenever its buffer is full), and
 * stops once the request is answered or closed. Written all at once, a million one-byte chunks
 * would wait in one queue that Node 24 flushes in a single writev, which fails with EINVAL.
 */
async function writePaced(request: ClientRequest, chunks: Iterable<Uint8Array>, answered: () => boolean) {
  const drained = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        request.off("drain", done).off("close", done);
        resolve();
      };
      request.on("drain", done).on("close", done);
    });
  for (const chunk of chunks) {
    if (answered() || request.destroyed) return;
    if (!request.write(chunk)) await drained();
  }
  request.end();
}

/** POSTs raw bytes over node:http, so the test controls the framing and every header. */
function rawHttp(options: {
  url?: string;
  agent?: Agent;
  body?: string | Uint8Array;
  chunks?: Iterable<Uint8Array>;
  headers?: Record<string, string>;
  stallAfter?: Uint8Array;
}): Promise<{ status: number; headers: Record<string, unknown>; text: string; reusedSocket: boolean }> {
  const url = new URL(options.url ?? server.url);
  let answered = false;
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        agent: options.agent,
        headers: { ...standardHeaders("tools/list"), ...options.headers },
      },
      (response) => {
        answered = true;
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            text,
            reusedSocket: request.reusedSocket,
          }),
        );
      },
    );
    request.on("error", reject);
    if (options.stallAfter) {
      request.write(options.stallAfter); // …and never the rest
      return;
    }
    if (options.chunks) writePaced(request, options.chunks, () => answered).catch(reject);
    else request.end(options.body);
  });
}

const memory = async () =>
  (await (await fetch(new URL("/_test/memory", server.url))).json()) as {
    heapUsed: number;
    arrayBuffers: number;
    rss: number;
  };

describe("deep or large JSON anywhere", () => {
  it.each([
    ["arguments", "tools/call", { name: "structured_sum", arguments: { a: DEEP, b: 1 } }],
    ["inputResponses", "tools/call", { name: "three_questions", arguments: {}, inputResponses: { word: DEEP } }],
    [
      "_meta",
      "tools/call",
      { name: "structured_sum", arguments: { a: 1, b: 1 }, _meta: { ...meta(ELICITATION), deep: DEEP } },
    ],
    ["requestState", "tools/call", { name: "three_questions", arguments: {}, requestState: DEEP }],
    ["the cursor", "tools/list", { cursor: DEEP }],
  ])(
    "refuses a value nested 100,000 deep in %s with -32600 and 400, and echoes none of it",
    async (_, method, params) => {
      const result = await postDeep(method, params);
      expect(result.status).toBe(400);
      expect(JSON.parse(result.text)).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32600 } });
      expect(result.text.length).toBeLessThan(500);
    },
  );

  it("accepts reasonable nesting (60 levels) where the schema allows anything", async () => {
    const result = await post(
      server.url,
      "tools/call",
      { name: "mirrored_headers", arguments: { label: "x", extra: nested(58) } },
      { headers: { "mcp-param-label": "x" } },
    );
    expect(result.body.result.content[0].text).toBe("x|-|-");
  });

  it("refuses a 900 KB cursor with -32602 without echoing it", async () => {
    const result = await post(server.url, "tools/list", { cursor: "A".repeat(900_000) });
    expect(result.body.error.code).toBe(-32602);
    expect(JSON.stringify(result.body).length).toBeLessThan(500);
  });

  it("answers 900 KB of wrong arguments with a short isError result", async () => {
    const result = await post(server.url, "tools/call", {
      name: "structured_sum",
      arguments: { a: Array.from({ length: 100_000 }, () => "x"), b: 1 },
    });
    expect(result.body.result.isError).toBe(true);
    expect(JSON.stringify(result.body).length).toBeLessThan(2_000);
  });

  it.each([
    ["a number", 12345],
    ["an object", { v: 1 }],
    ["an array", ["v1"]],
    ["null", null],
    ["a long non-state string", "x".repeat(500_000)],
  ])("treats a requestState that is %s as any other bad state", async (_, requestState) => {
    const key = uniqueKey();
    await askToIncrement(server.url, key);
    expectOpaqueRejection(await retryIncrement(server.url, key, requestState));
    expect(await readCounter(server.url, key)).toBe(0);
  });
});

describe("bodies whatever their framing", () => {
  const json = (text: string) => new TextEncoder().encode(text);

  it("refuses a declared Content-Length far over the limit before reading it, and closes the connection", async () => {
    const result = await rawHttp({
      headers: { "content-length": String(50 * 1024 * 1024) },
      stallAfter: json("x".repeat(100)),
    });
    expect(result.status).toBe(413);
    expect(result.headers.connection).toBe("close");
    expect(JSON.parse(result.text).error.code).toBe(-32600);
  });

  it("reads a body that came whole with its headers at once, and refuses one over the limit with 413 on a kept connection", async () => {
    const strict = await startServer({ env: { NITRO_MCP_MAX_BODY_BYTES: "1024" } });
    // One connection, each request in one write (node:http sends a small body with its headers): the server finds every
    // byte buffered before it reads.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (padding: number) =>
      rawHttp({
        url: strict.url,
        agent,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/list",
          params: { _meta: meta(), padding: "x".repeat(padding) },
        }),
      });
    try {
      const fits = await send(600);
      expect(fits.status).toBe(200);
      expect(JSON.parse(fits.text).result.tools.length).toBeGreaterThan(0);
      const over = await send(2_000);
      expect(over.status).toBe(413);
      expect(JSON.parse(over.text).error.code).toBe(-32600);
      expect(over.headers.connection).not.toBe("close");
      const next = await send(0);
      expect(next.status).toBe(200);
      expect(next.reusedSocket).toBe(true);
    } finally {
      agent.destroy();
      await strict.stop();
    }
  });

  it("refuses a chunked body over the limit with 413, in many tiny chunks as in big ones", async () => {
    const oneByte = (count: number) => Array.from({ length: count }, () => json("x"));
    const tiny = await rawHttp({ chunks: oneByte(1_100_000), headers: { "transfer-encoding": "chunked" } });
    expect(tiny.status).toBe(413);
    const big = await rawHttp({ chunks: [json("x".repeat(2_000_000))], headers: { "transfer-encoding": "chunked" } });
    expect(big.status).toBe(413);
  }, 120_000); // a bound on "answered at all": a million chunks took 15 s on a loaded 2-core machine

  it("keeps a sub-limit body sent one byte at a time in memory proportional to its size", async () => {
    const before = await memory();
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: meta(), padding: "x".repeat(600_000) },
    });
    let peak = 0;
    let uploading = true;
    // One sample at a time (each is a full GC in the server): on a busy machine, samples fired on a timer
    // would pile up and swamp the server; and sampling stops however the upload ends.
    const sampling = (async () => {
      while (uploading) {
        const now = await memory();
        peak = Math.max(peak, now.heapUsed + now.arrayBuffers);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const result = await rawHttp({
      chunks: [...json(body)].map((byte) => Uint8Array.of(byte)),
      headers: { "transfer-encoding": "chunked" },
    }).finally(() => (uploading = false));
    await sampling;
    expect(result.status).toBe(200);
    expect(JSON.parse(result.text).result.tools.length).toBeGreaterThan(0);
    // 600,000 chunks kept as objects would cost tens of MB; copied into one buffer they cost about the body.
    expect(peak - (before.heapUsed + before.arrayBuffers)).toBeLessThan(16 * 1024 * 1024);
    const after = await memory();
    expect(after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers)).toBeLessThan(4 * 1024 * 1024);
  }, 120_000);

  it("answers a body that stops arriving with 408 once the body timeout passes, and closes the connection", async () => {
    // Only that it is answered at all (the test's own timeout bounds how late), never how soon.
    const impatient = await startServer({ env: { NITRO_MCP_BODY_TIMEOUT_MS: "500" } });
    const result = await rawHttp({
      url: impatient.url,
      headers: { "content-length": "100" },
      stallAfter: json('{"jsonrpc":"2.0",'),
    });
    expect(result.status).toBe(408);
    expect(result.headers.connection).toBe("close");
    expect(JSON.parse(result.text).error.code).toBe(-32600);
    await impatient.stop();
  });
});

describe("identifiers that reach storage keys", () => {
  it.each(["a:b", "../x", "a/b", "a?b", "a#b", "a\\b", "ａ", "a b", "x".repeat(200)])(
    "refuses the key %j before it reaches storage, and no other key is touched",
    async (key) => {
      const own = uniqueKey();
      const result = await post(server.url, "tools/call", { name: "read_counter", arguments: { key: `${own}${key}` } });
      expect(result.body.result.isError).toBe(true);
      expect(await readCounter(server.url, own)).toBe(0);
    },
  );
});

describe("headers", () => {
  it.each(["evil host", "a..b", "[::1", "x:99999", "x:", "a/b", "user@x.example", "x.example:80:80"])(
    "refuses the Host %j with 400 and -32600",
    async (host) => {
      const result = await rawHttp({ body: "{}", headers: { host } });
      expect(result.status).toBe(400);
      expect(JSON.parse(result.text).error.code).toBe(-32600);
    },
  );
});

it("logged no uncaught exception while all of this was going on", () => {
  expect(server.logs()).not.toMatch(/uncaught|unhandled|RangeError|Maximum call stack|TypeError/i);
});
