/**
 * Streamable HTTP at 2026-07-28, through raw fetch against the built server:
 * every error path asserts both the JSON-RPC code and the HTTP status.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meta, post, standardHeaders } from "../helpers/rpc";
import { startServer, type RunningServer } from "../helpers/server.mjs";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ env: { NITRO_MCP_MAX_BODY_BYTES: "4096", NITRO_MCP_ALLOWED_ORIGINS: "https://app.example" } });
});
afterAll(() => server.stop());

const rawPost = (body: string, headers: Record<string, string> = standardHeaders("tools/list")) =>
  fetch(server.url, { method: "POST", headers, body });

describe("envelope", () => {
  it("answers a notification with 202 and no body", async () => {
    const response = await rawPost(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: {} }));
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it.each(["GET", "DELETE", "PUT"])("answers %s with 405 and Allow: POST", async (verb) => {
    const response = await fetch(server.url, { method: verb });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  it("rejects invalid JSON with -32700 and 400", async () => {
    const response = await rawPost("{not json");
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe(-32700);
  });

  it("rejects a batch with -32600 and 400", async () => {
    const response = await rawPost(JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "tools/list" }]));
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe(-32600);
  });

  it.each([
    ["a response sent by the client", { jsonrpc: "2.0", id: 9, result: {} }, 9],
    ["a null id", { jsonrpc: "2.0", id: null, method: "tools/list", params: {} }, undefined],
    ["a wrong jsonrpc version", { jsonrpc: "1.0", id: 9, method: "tools/list" }, 9],
    ["non-object params", { jsonrpc: "2.0", id: 9, method: "tools/list", params: [1] }, 9],
  ])("rejects %s with -32600 and 400, echoing the id when it is readable", async (_, message, echoed) => {
    const response = await rawPost(JSON.stringify(message));
    const body = await response.json();
    expect(response.status).toBe(400);
    expect(body.error.code).toBe(-32600);
    expect(body.id).toBe(echoed);
  });

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

  it("refuses a non-JSON content type with 415", async () => {
    const response = await rawPost("{}", { ...standardHeaders("tools/list"), "content-type": "text/plain" });
    expect(response.status).toBe(415);
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

  it("ignores Mcp-Session-Id and Last-Event-ID and never mints a session", async () => {
    const result = await post(server.url, "tools/list", {}, { headers: { "mcp-session-id": "abc", "last-event-id": "7" } });
    expect(result.status).toBe(200);
    expect(result.headers.get("mcp-session-id")).toBeNull();
  });
});

describe("_meta", () => {
  it.each([
    ["no _meta", {}],
    ["no protocolVersion", { _meta: { "io.modelcontextprotocol/clientCapabilities": {} } }],
    ["no clientCapabilities", { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }],
    ["clientCapabilities that is not an object", { _meta: { ...meta(), "io.modelcontextprotocol/clientCapabilities": true } }],
    ["an unknown log level", { _meta: meta({}, { "io.modelcontextprotocol/logLevel": "loud" }) }],
    ["a malformed clientInfo", { _meta: meta({}, { "io.modelcontextprotocol/clientInfo": { name: 1 } }) }],
  ])("rejects %s with -32602 and 400", async (_, params) => {
    const result = await post(server.url, "server/discover", params, { id: 42, noMeta: true });
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe(-32602);
    expect(result.body.id).toBe(42);
  });

  it("serves a request without clientInfo", async () => {
    const { "io.modelcontextprotocol/clientInfo": _, ...rest } = meta();
    const result = await post(server.url, "server/discover", { _meta: rest });
    expect(result.status).toBe(200);
    expect(result.body.result.supportedVersions).toContain("2026-07-28");
  });

  it("rejects an unsupported version with -32022, 400 and the supported list", async () => {
    const params = { _meta: { ...meta(), "io.modelcontextprotocol/protocolVersion": "v999.0.0" } };
    const result = await post(server.url, "server/discover", params, { headers: { "mcp-protocol-version": "v999.0.0" } });
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe(-32022);
    expect(result.body.error.data).toEqual({ requested: "v999.0.0", supported: expect.arrayContaining(["2026-07-28"]) });
  });
});

describe("mirrored headers", () => {
  const MIRRORED = { "mcp-param-label": "x", "mcp-param-count": "42", "mcp-param-flag": "true" };
  const callMirrored = (headers: Record<string, string>, args: Record<string, unknown> = { label: "x", count: 42, flag: true }) =>
    post(server.url, "tools/call", { name: "mirrored_headers", arguments: args }, { headers });

  it.each([
    ["MCP-Protocol-Version that differs from _meta", { "mcp-protocol-version": "2025-11-25" }],
    ["Mcp-Method that differs from the body", { "mcp-method": "tools/list" }],
    ["Mcp-Method with different case", { "mcp-method": "TOOLS/CALL" }],
    ["Mcp-Method in base64 (only Mcp-Name and Mcp-Param-* may be encoded)", { "mcp-method": `=?base64?${btoa("tools/call")}?=` }],
    ["Mcp-Name that differs from the body", { "mcp-name": "structured_sum" }],
    ["a missing Mcp-Param-Label", { "mcp-param-label": undefined }],
    ["Mcp-Param-Label that differs from the body", { "mcp-param-label": "y" }],
    ["Mcp-Param-Count that differs from the body", { "mcp-param-count": "43" }],
    ["Mcp-Param-Flag that differs from the body", { "mcp-param-flag": "false" }],
    ["Mcp-Param-Label with bad base64 padding", { "mcp-param-label": "=?base64?eA?=" }],
    ["Mcp-Param-Label with invalid base64 characters", { "mcp-param-label": "=?base64?e!!A=?=" }],
    ["Mcp-Param-Label padded with a no-break space (only space and tab are trimmed)", { "mcp-param-label": "x\u00a0" }],
  ])("rejects %s with -32020 and 400", async (_, changes) => {
    const headers = Object.fromEntries(Object.entries({ ...MIRRORED, ...changes }).filter(([, value]) => value !== undefined)) as Record<string, string>;
    const result = await callMirrored(headers);
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe(-32020);
    expect(result.body.error.message).toMatch(/header/i);
  });

  it.each([
    ["missing MCP-Protocol-Version", "mcp-protocol-version"],
    ["missing Mcp-Method", "mcp-method"],
    ["missing Mcp-Name", "mcp-name"],
  ])("rejects a %s header with -32020 and 400", async (_, name) => {
    const headers: Record<string, string> = { ...standardHeaders("tools/call", { name: "mirrored_headers" }), "mcp-param-label": "x" };
    delete headers[name];
    const result = await post(server.url, "tools/call", { name: "mirrored_headers", arguments: { label: "x" } }, { rawHeaders: headers });
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe(-32020);
  });

  it.each([
    ["plain", "x"],
    ["base64-encoded", `=?base64?${btoa("x")}?=`],
    ["padded with spaces and tabs", " \tx\t "],
  ])("accepts a matching %s Mcp-Param header, and a padded Mcp-Name", async (_, value) => {
    const result = await callMirrored({ ...MIRRORED, "mcp-param-label": value, "mcp-name": "  mirrored_headers  " });
    expect(result.status).toBe(200);
    expect(result.body.result.content[0].text).toBe("x|42|true");
  });

  it("needs no Mcp-Param header when the parameter is absent from the body", async () => {
    const result = await callMirrored({ "mcp-param-label": "x" }, { label: "x" });
    expect(result.body.result.content[0].text).toBe("x|-|-");
  });

  it("decodes a base64 Mcp-Name for a resource URI", async () => {
    const uri = "fixture://items/12";
    const result = await post(server.url, "resources/read", { uri }, { headers: { "mcp-name": `=?base64?${btoa(uri)}?=` } });
    expect(result.status).toBe(200);
    expect(result.body.result.contents[0].text).toBe("twelve");
  });
});

describe("methods", () => {
  it.each(["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "no/such/method"])(
    "answers %s with -32601 and 404",
    async (method) => {
      const result = await post(server.url, method, {});
      expect(result.status).toBe(404);
      expect(result.body.error.code).toBe(-32601);
    },
  );

  it("discovers only the capabilities that exist, with caching hints and server identity", async () => {
    const { body } = await post(server.url, "server/discover", {});
    expect(body.result).toMatchObject({
      resultType: "complete",
      supportedVersions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
      capabilities: { tools: {}, prompts: {}, resources: {}, completions: {} },
      ttlMs: expect.any(Number),
      cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp-edge-template", version: expect.any(String) } },
    });
  });

  it("lists tools in a deterministic order with caching hints", async () => {
    const first = await post(server.url, "tools/list", {});
    const second = await post(server.url, "tools/list", {});
    const names = first.body.result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toEqual([...names].sort());
    expect(second.body.result.tools).toEqual(first.body.result.tools);
    expect(first.body.result).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number), cacheScope: "public" });
  });

  it("answers unknown tools and prompts with -32602 (HTTP 200)", async () => {
    const tool = await post(server.url, "tools/call", { name: "nope", arguments: {} });
    const prompt = await post(server.url, "prompts/get", { name: "nope" });
    for (const result of [tool, prompt]) {
      expect(result.status).toBe(200);
      expect(result.body.error.code).toBe(-32602);
    }
  });

  it("answers an unknown resource with -32602 and data.uri (HTTP 200)", async () => {
    const result = await post(server.url, "resources/read", { uri: "fixture://items/999" });
    expect(result.status).toBe(200);
    expect(result.body.error).toMatchObject({ code: -32602, data: { uri: "fixture://items/999" } });
  });

  it("answers an invalid cursor with -32602", async () => {
    const result = await post(server.url, "tools/list", { cursor: "not-a-cursor" });
    expect(result.body.error.code).toBe(-32602);
  });

  it("reports invalid tool arguments as an isError result the model can act on", async () => {
    const result = await post(server.url, "tools/call", { name: "structured_sum", arguments: { a: "one", b: 2 } });
    expect(result.status).toBe(200);
    expect(result.body.result.isError).toBe(true);
    expect(result.body.result.content[0].text).toMatch(/a: .*expected number/);
  });

  it("returns structured output with its JSON text", async () => {
    const result = await post(server.url, "tools/call", { name: "structured_sum", arguments: { a: 2, b: 3 } });
    expect(result.body.result.structuredContent).toEqual({ sum: 5 });
    expect(JSON.parse(result.body.result.content[0].text)).toEqual({ sum: 5 });
  });

  it("reads a fixed resource and a templated one, with caching hints", async () => {
    const about = await post(server.url, "resources/read", { uri: "fixture://about" });
    expect(about.body.result).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public", resultType: "complete" });
    const item = await post(server.url, "resources/read", { uri: "fixture://items/12" });
    expect(item.body.result.contents[0]).toEqual({ uri: "fixture://items/12", mimeType: "text/plain", text: "twelve" });
    expect(item.body.result).toMatchObject({ ttlMs: 0, cacheScope: "private" });
  });

  it("completes prompt arguments and template variables", async () => {
    const prompt = await post(server.url, "completion/complete", {
      ref: { type: "ref/prompt", name: "draft" },
      argument: { name: "style", value: "b" },
    });
    expect(prompt.body.result.completion).toEqual({ values: ["bullet points"], total: 1, hasMore: false });
    const template = await post(server.url, "completion/complete", {
      ref: { type: "ref/resource", uri: "fixture://items/{id}" },
      argument: { name: "id", value: "1" },
    });
    expect(template.body.result.completion.values).toEqual(["1", "12", "15"]);
  });

  it("acknowledges subscriptions/listen first, honouring nothing, tagged with its id, then ends it gracefully", async () => {
    const result = await post(server.url, "subscriptions/listen", { notifications: { toolsListChanged: true } }, { id: "sub-1" });
    expect(result.status).toBe(200);
    expect(result.type).toBe("text/event-stream");
    const tag = { "io.modelcontextprotocol/subscriptionId": "sub-1" };
    expect(result.messages).toEqual([
      { jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { _meta: tag, notifications: {} } },
      { jsonrpc: "2.0", id: "sub-1", result: expect.objectContaining({ resultType: "complete", _meta: expect.objectContaining(tag) }) },
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

  it("answers with plain JSON and sends no log messages when the client asked for neither", async () => {
    const result = await post(server.url, "tools/call", { name: "progress_steps", arguments: { steps: 2, delay_ms: 1 } });
    expect(result.type).toBe("application/json");
    expect(result.messages).toHaveLength(1);
  });

  it("sends log messages at or above the requested level only", async () => {
    const call = (level: string) =>
      post(server.url, "tools/call", { name: "progress_steps", arguments: { steps: 2, delay_ms: 1 } }, { metaExtra: { "io.modelcontextprotocol/logLevel": level } });
    const debug = await call("debug");
    expect(debug.messages.filter((message) => message.method === "notifications/message")).toHaveLength(2);
    const info = await call("info");
    expect(info.messages.some((message) => message.method === "notifications/message")).toBe(false);
  });

  it("cancels the handler when the client closes the stream", async () => {
    const controller = new AbortController();
    const response = await fetch(server.url, {
      method: "POST",
      headers: standardHeaders("tools/call", { name: "progress_steps" }),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 77,
        method: "tools/call",
        params: { name: "progress_steps", arguments: { steps: 100, delay_ms: 100 }, _meta: meta({}, { progressToken: 1 }) },
      }),
      signal: controller.signal,
    });
    await response.body!.getReader().read(); // the first progress frame
    controller.abort();
    // Only a cancelled run writes this line (a finished one would not), so the wait may be generous.
    await expect.poll(() => server.logs()).toMatch(/\[fixture\] progress_steps cancelled during step \d+ of 100/);
  });
});

describe("Origin and Host", () => {
  it("refuses a rebinding Host on a loopback server with 403", async () => {
    const { status } = await post(server.url, "server/discover", {}, { headers: { host: "evil.example.com", origin: "http://evil.example.com" } });
    expect(status).toBe(403);
  });

  it("refuses a foreign Origin with 403 and accepts the same origin", async () => {
    const host = new URL(server.url).host;
    expect((await post(server.url, "server/discover", {}, { headers: { origin: "https://evil.example" } })).status).toBe(403);
    expect((await post(server.url, "server/discover", {}, { headers: { origin: `http://${host}` } })).status).toBe(200);
  });

  it("lets an allowed origin through with CORS headers, and answers its preflight", async () => {
    const result = await post(server.url, "server/discover", {}, { headers: { origin: "https://app.example" } });
    expect(result.status).toBe(200);
    expect(result.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const preflight = await fetch(server.url, {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-locale, x-evil",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-locale");
    expect(preflight.headers.get("access-control-expose-headers")).toMatch(/WWW-Authenticate/);
  });

  it("refuses the preflight of a foreign origin with 403", async () => {
    const preflight = await fetch(server.url, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(403);
  });
});

describe("pagination", () => {
  it("walks tools/list page by page with opaque cursors (NITRO_MCP_PAGE_SIZE=2)", async () => {
    const small = await startServer({ env: { NITRO_MCP_PAGE_SIZE: "2" } });
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { body } = await post(small.url, "tools/list", cursor ? { cursor } : {});
      expect(body.result.tools.length).toBeLessThanOrEqual(2);
      expect(body.result).toMatchObject({ ttlMs: expect.any(Number), cacheScope: "public" });
      names.push(...body.result.tools.map((tool: { name: string }) => tool.name));
      cursor = body.result.nextCursor;
      pages++;
    } while (cursor);
    const all = (await post(server.url, "tools/list", {})).body.result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / 2));
    await small.stop();
  });
});
