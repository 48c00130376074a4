/**
 * What an operator sees: the request log (one JSON line per request, nothing secret), operator
 * messages as JSON lines with a level, the readable format, and the OpenTelemetry spans — through
 * the real endpoint, with the SDK a deployer would register (tests/fixtures/plugins/test-tracing.ts).
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { CONFIRM, askToIncrement, retryIncrement, uniqueKey } from "../helpers/flows";
import { closeProgressCall, post, type Json } from "../helpers/rpc";
import { startServer, type RunningServer } from "../helpers/server.mjs";
import { hasFeature } from "../helpers/project.mjs";

const TOKEN = "observability-test-token-1234567890";
const AUTHORIZED = { headers: { authorization: `Bearer ${TOKEN}` } };

/** The server's JSON log lines since `mark` (an index into its raw output). */
const jsonLines = (server: RunningServer, mark = 0): Json[] =>
  server
    .rawLogs()
    .slice(mark)
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
const requestLines = (server: RunningServer, mark = 0) =>
  jsonLines(server, mark).filter((line) => line.msg === "request");
/** Waits until the request lines with these JSON-RPC ids are written (lines leave in batches, and an earlier test's may come late). */
const linesOf = async (server: RunningServer, mark: number, ids: string[]) => {
  await expect
    .poll(() => ids.every((id) => requestLines(server, mark).some((line) => line.requestId === id)))
    .toBe(true);
  return requestLines(server, mark);
};

describe("the request log", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: { NITRO_MCP_AUTH_TOKENS: `ci-bot:${TOKEN}` } });
  });
  afterAll(() => server.stop());

  it("writes one JSON line per request: id, principal, era, method, target, outcome, status, duration", async () => {
    const mark = server.rawLogs().length;
    const key = uniqueKey();
    const state = await askToIncrement(server.url, key, { ...AUTHORIZED, id: "asked-1" });
    await retryIncrement(server.url, key, state, { ...AUTHORIZED, id: "done-1" });
    await post(server.url, "tools/call", { name: "no_such_tool", arguments: {} }, { ...AUTHORIZED, id: "unknown-1" });
    await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "text/plain", ...AUTHORIZED.headers },
      body: "x",
    });
    await expect.poll(() => requestLines(server, mark).some((line) => line.status === 415)).toBe(true);
    const lines = await linesOf(server, mark, ["asked-1", "done-1", "unknown-1"]);
    const byId = (id: string) => lines.find((line) => line.requestId === id);
    const common = {
      level: "info",
      http: "POST /mcp",
      principal: hasFeature("sign-in") ? "ci-bot" : "anonymous",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      durationMs: expect.any(Number),
    };
    expect(byId("asked-1")).toMatchObject({
      ...common,
      status: 200,
      era: "modern",
      method: "tools/call",
      target: "confirm_increment",
      resultType: "input_required",
    });
    expect(byId("done-1")).toMatchObject({
      ...common,
      status: 200,
      method: "tools/call",
      target: "confirm_increment",
      resultType: "complete",
    });
    expect(byId("unknown-1")).toMatchObject({ ...common, status: 200, target: "no_such_tool", errorCode: -32602 });
    expect(lines.find((line) => line.status === 415)).toMatchObject({ ...common, errorCode: -32600 });
  });

  it("never writes a token, a sealed state or an argument value", async () => {
    const mark = server.rawLogs().length;
    const key = uniqueKey();
    const state = await askToIncrement(server.url, key, { ...AUTHORIZED, id: "secret-1" });
    await retryIncrement(server.url, key, state, { ...AUTHORIZED, id: "secret-2" });
    await linesOf(server, mark, ["secret-1", "secret-2"]);
    const written = server.rawLogs().slice(mark);
    for (const secret of [TOKEN, state, key]) expect(written).not.toContain(secret);
  });

  it("cuts what the client sent: a 3,000-character id, method and path make a line of a few hundred characters", async () => {
    const mark = server.rawLogs().length;
    const long = "x".repeat(3_000);
    await post(new URL(`/mcp?${long}`, server.url).href, `${long}/call`, {}, { ...AUTHORIZED, id: `clip-${long}` });
    await expect
      .poll(() => requestLines(server, mark).some((line) => String(line.requestId).startsWith("clip-")))
      .toBe(true);
    const line = requestLines(server, mark).find((written) => String(written.requestId).startsWith("clip-"))!;
    expect(line).toMatchObject({
      requestId: `clip-${long.slice(0, 195)}`,
      method: long.slice(0, 200),
      errorCode: -32601,
    });
    expect(JSON.stringify(line).length).toBeLessThan(1_000);
  });

  it("takes a client that hangs up mid-body as a refused request (-32600), not an internal error", async () => {
    const mark = server.rawLogs().length;
    const { hostname, port } = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
            `Authorization: Bearer ${TOKEN}\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`,
          () => setTimeout(() => socket.destroy(), 100),
        );
      });
      socket.on("error", reject).on("close", () => resolve());
    });
    // Its line: no JSON-RPC message was read, so it has no requestId (an earlier test's line may still come late).
    const hungUp = (line: Json) => line.errorCode === -32600 && line.requestId === undefined && line.status !== 415;
    await expect.poll(() => requestLines(server, mark).some(hungUp)).toBe(true);
    expect(requestLines(server, mark).find(hungUp)).toMatchObject({ status: 400, http: "POST /mcp" });
    expect(jsonLines(server, mark).filter((line) => line.level === "error")).toEqual([]);
  });

  it("marks a call whose client closed its stream before the answer as cancelled, not as one that completed", async () => {
    const mark = server.rawLogs().length;
    await closeProgressCall(server.url, "closed-1", { delayMs: 50, headers: AUTHORIZED.headers });
    const finished = await post(
      server.url,
      "tools/call",
      { name: "structured_sum", arguments: { a: 1, b: 2 } },
      {
        ...AUTHORIZED,
        id: "finished-1",
      },
    );
    expect(finished.status).toBe(200);
    const lines = await linesOf(server, mark, ["closed-1", "finished-1"]);
    expect(lines.find((line) => line.requestId === "closed-1")).toMatchObject({
      target: "progress_steps",
      cancelled: true,
    });
    expect(lines.find((line) => line.requestId === "finished-1")).not.toHaveProperty("cancelled");
  });

  it("writes operator messages as JSON lines with a level", async () => {
    const mark = server.rawLogs().length;
    const key = uniqueKey();
    await retryIncrement(server.url, key, `${await askToIncrement(server.url, key, AUTHORIZED)}x`, AUTHORIZED);
    await expect
      .poll(() => jsonLines(server, mark).find((line) => String(line.msg).startsWith("requestState rejected")))
      .toMatchObject({
        level: "warn",
        msg: expect.stringMatching(/^requestState rejected on tools\/call "confirm_increment": /),
        time: expect.any(String),
      });
  });
});

describe("log options", () => {
  it("adds the arguments when NITRO_MCP_LOG_ARGUMENTS is on", async () => {
    const server = await startServer({ env: { NITRO_MCP_LOG_ARGUMENTS: "true" } });
    await post(server.url, "tools/call", { name: "structured_sum", arguments: { a: 20, b: 22 } });
    await expect
      .poll(() => requestLines(server)[0])
      .toMatchObject({ target: "structured_sum", arguments: { a: 20, b: 22 } });
    await server.stop();
  });

  it("writes readable text with NITRO_MCP_LOG_FORMAT=pretty, and no request lines with NITRO_MCP_LOG_REQUESTS=false", async () => {
    const pretty = await startServer({ env: { NITRO_MCP_LOG_FORMAT: "pretty" } });
    await post(pretty.url, "tools/call", { name: "structured_sum", arguments: { a: 1, b: 2 } });
    await expect
      .poll(() => pretty.rawLogs())
      .toMatch(/\[mcp\] request {2}http=POST \/mcp status=200 .*method=tools\/call target=structured_sum/);
    expect(pretty.rawLogs()).not.toMatch(/^\{/m);
    const quiet = await startServer({ env: { NITRO_MCP_LOG_REQUESTS: "false" } });
    await post(quiet.url, "tools/call", { name: "structured_sum", arguments: { a: 1, b: 2 } });
    // A later line proves the first request's line would have been written by now: lines leave in order,
    // and the request line is queued as its response ends, before the next request is even sent.
    await post(quiet.url, "tools/call", { name: "fails_unexpectedly", arguments: {} });
    await expect.poll(() => quiet.logs()).toContain('tool "fails_unexpectedly" threw');
    expect(requestLines(quiet)).toEqual([]);
    await Promise.all([pretty.stop(), quiet.stop()]);
  });
});

describe("log lines cannot be forged", () => {
  // A newline, a carriage return, ESC (a terminal's colour escape), a C1 CSI and a Unicode line separator.
  const FORGED = "x\r\n[mcp] forged\u001b[31m\u009b2J\u2028end";
  const ESCAPED = "x\\r\\n[mcp] forged\\u001b[31m\\u009b2J\\u2028end";
  // Without Mcp-Method and Mcp-Name (a header cannot carry a newline): refused, and logged with what the body said.
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
  };
  const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

  it.each(["json", "pretty"])(
    "escapes what a client sent in a JSON-RPC id, method, tool name, URI or Origin (%s)",
    async (format) => {
      const server = await startServer({ env: { NITRO_MCP_LOG_FORMAT: format } });
      onTestFinished(() => server.stop());
      const mark = server.rawLogs().length;
      await post(server.url, "tools/list", {}, { rawHeaders: headers, id: FORGED });
      await post(server.url, FORGED, {}, { rawHeaders: headers, id: "forged-method" });
      await post(server.url, "tools/call", { name: FORGED, arguments: {} }, { rawHeaders: headers, id: "forged-tool" });
      await post(server.url, "resources/read", { uri: FORGED }, { rawHeaders: headers, id: "forged-uri" });
      // An Origin header can carry the C1 byte, which reaches the warning's message.
      expect(
        (await post(server.url, "tools/list", {}, { headers: { origin: "https://a.example\u009b2J" } })).status,
      ).toBe(403);
      await expect.poll(() => server.rawLogs().slice(mark)).toContain("is not allowed");
      if (format === "json") {
        const lines = await linesOf(server, mark, [FORGED, "forged-method", "forged-tool", "forged-uri"]);
        const byId = (id: string) => lines.find((line) => line.requestId === id);
        expect(byId(FORGED)).toMatchObject({ method: "tools/list" });
        expect(byId("forged-method")).toMatchObject({ method: FORGED });
        expect(byId("forged-tool")).toMatchObject({ target: FORGED });
        expect(byId("forged-uri")).toMatchObject({ target: FORGED });
        expect(jsonLines(server, mark).map((line) => line.msg)).toContain(
          '403: Origin "https://a.example\u009b2J" is not allowed: list it in NITRO_MCP_ALLOWED_ORIGINS',
        );
      } else {
        await expect
          .poll(
            () =>
              server
                .rawLogs()
                .slice(mark)
                .split("\n")
                .filter((line) => line.startsWith("[mcp] request ")).length,
          )
          .toBe(5);
        const fields = [
          `requestId=${ESCAPED} method=tools/list`,
          `method=${ESCAPED}`,
          `method=tools/call target=${ESCAPED}`,
          `method=resources/read target=${ESCAPED}`,
        ];
        for (const field of fields) expect(server.rawLogs().slice(mark)).toContain(field);
        expect(server.rawLogs().slice(mark)).toContain('Origin "https://a.example\\u009b2J" is not allowed');
      }
      const written = server.rawLogs().slice(mark);
      expect(written).not.toMatch(CONTROL);
      for (const line of written.split("\n").filter(Boolean)) {
        if (format === "json") expect(() => JSON.parse(line), line).not.toThrow();
        else expect(line).toMatch(/^\[mcp\] (?!forged)/);
      }
    },
  );
});

describe("traces (OpenTelemetry)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: { TEST_TRACING: "1" } });
  });
  afterAll(() => server.stop());

  interface SpanJson {
    name: string;
    kind: number;
    traceId: string;
    spanId: string;
    parentSpanId?: string;
    attributes: Json;
    status: { code: number; message?: string };
    links: { traceId: string; spanId: string }[];
  }
  const spans = async (): Promise<SpanJson[]> => (await fetch(new URL("/_test/spans", server.url))).json();
  const trace = () => crypto.randomUUID().replaceAll("-", "");
  const parent = () => trace().slice(0, 16);

  it("makes a SERVER span per request, child of the _meta trace context, linked to the HTTP one", async () => {
    const [traceId, parentId, httpTrace, httpParent] = [trace(), parent(), trace(), parent()];
    const key = uniqueKey();
    await askToIncrement(server.url, key, {
      metaExtra: { traceparent: `00-${traceId}-${parentId}-01` },
      headers: { traceparent: `00-${httpTrace}-${httpParent}-01` },
      id: "traced-1",
    });
    await expect
      .poll(async () => (await spans()).some((entry) => entry.traceId === traceId && entry.kind === 1))
      .toBe(true);
    const request = (await spans()).find((entry) => entry.traceId === traceId && entry.kind === 1)!;
    expect(request).toMatchObject({
      name: "tools/call confirm_increment",
      parentSpanId: parentId,
      links: [{ traceId: httpTrace, spanId: httpParent }],
      attributes: {
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "confirm_increment",
        "gen_ai.operation.name": "execute_tool",
        "jsonrpc.request.id": "traced-1",
        "mcp.protocol.version": "2026-07-28",
        "mcp.result.type": "input_required",
        "http.response.status_code": 200,
      },
    });
    const seal = (await spans()).find((entry) => entry.traceId === traceId && entry.name === "requestState seal");
    expect(seal?.parentSpanId).toBe(request.spanId);
  });

  it("continues the HTTP traceparent when _meta has none, with the state opened and claimed as child spans", async () => {
    const key = uniqueKey();
    const state = await askToIncrement(server.url, key);
    const [traceId, parentId] = [trace(), parent()];
    await retryIncrement(server.url, key, state, {
      headers: { traceparent: `00-${traceId}-${parentId}-01` },
      answers: CONFIRM,
    });
    await expect
      .poll(async () => (await spans()).filter((entry) => entry.traceId === traceId).length)
      .toBeGreaterThanOrEqual(3);
    const inTrace = (await spans()).filter((entry) => entry.traceId === traceId);
    const request = inTrace.find((entry) => entry.kind === 1)!;
    expect(request).toMatchObject({ parentSpanId: parentId, links: [], attributes: { "mcp.result.type": "complete" } });
    const children = inTrace.filter((entry) => entry.parentSpanId === request.spanId).map((entry) => entry.name);
    expect(children).toEqual(expect.arrayContaining(["requestState open", "storage setIfAbsent"]));
  });

  it("marks a JSON-RPC error: error.type and rpc.response.status_code, status ERROR with the message", async () => {
    const traceId = trace();
    await post(
      server.url,
      "tools/call",
      { name: "no_such_tool", arguments: {} },
      { metaExtra: { traceparent: `00-${traceId}-${parent()}-01` } },
    );
    await expect
      .poll(async () => (await spans()).find((entry) => entry.traceId === traceId))
      .toMatchObject({
        name: "tools/call no_such_tool",
        attributes: { "error.type": "-32602", "rpc.response.status_code": "-32602" },
        status: { code: 2, message: "Unknown tool: no_such_tool" },
      });
  });

  it("cuts what the client named at 200 characters: the span's name, its attributes and its status message stay bounded", async () => {
    const spanOf = async (traceId: string) => {
      await expect.poll(async () => (await spans()).some((entry) => entry.traceId === traceId)).toBe(true);
      return (await spans()).find((entry) => entry.traceId === traceId)!;
    };
    const [name, id, version] = ["n".repeat(3000), "i".repeat(3000), "v".repeat(3000)];
    const [named, versioned] = [trace(), trace()];
    await post(server.url, "tools/call", { name }, { id, metaExtra: { traceparent: `00-${named}-${parent()}-01` } });
    const span = await spanOf(named);
    expect(span.name).toBe(`tools/call ${name.slice(0, 200)}`);
    expect(span.attributes).toMatchObject({
      "gen_ai.tool.name": name.slice(0, 200),
      "jsonrpc.request.id": id.slice(0, 200),
    });
    expect(span.status.message).toMatch(/^Unknown tool: n+/);
    expect(span.status.message!.length).toBeLessThanOrEqual(1000);

    const meta = { traceparent: `00-${versioned}-${parent()}-01`, "io.modelcontextprotocol/protocolVersion": version };
    await post(server.url, "tools/call", { name: "no_such_tool" }, { metaExtra: meta });
    expect((await spanOf(versioned)).attributes["mcp.protocol.version"]).toBe(version.slice(0, 200));
  });
});
