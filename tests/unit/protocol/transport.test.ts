/**
 * Streamable HTTP at 2026-07-28, in-process (tests/helpers/in-process.ts), through the same route and
 * pipeline as a build: every error path asserts both the JSON-RPC code and the HTTP status. What needs a
 * real runtime (body limits, SSE framing, cancellation, the loopback Host guard) is in tests/e2e/transport.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  createTestServer,
  type Json,
  type RequestOptions,
  type TestClient,
  type TestServer,
} from "../../helpers/in-process";
import { meta, standardHeaders } from "../../helpers/rpc";
import { FIXTURES } from "./flows";
import { PACKAGE, hasFeature } from "../../helpers/project.mjs";

let server: TestServer;
let client: TestClient;
beforeAll(async () => {
  server = await createTestServer({ ...FIXTURES, env: { NITRO_MCP_ALLOWED_ORIGINS: "https://app.example" } });
  client = server.connect();
});

const post = (method: string, params: Json = {}, options: RequestOptions = {}) =>
  client.request(method, params, options);
/** Sends the params exactly as given, without `_meta`. */
const postBare = (method: string, params: Json, id: number) =>
  server.post({ jsonrpc: "2.0", id, method, params }, standardHeaders(method, params));
const rawPost = (body: string, headers: Record<string, string> = standardHeaders("tools/list")) =>
  server.post(body, headers);
const send = (verb: string, headers: Record<string, string> = {}, path = "/mcp") =>
  server.fetch(new Request(`http://localhost${path}`, { method: verb, headers }));

describe("envelope", () => {
  it("answers a notification with 202 and no body", async () => {
    const response = await rawPost(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: {} }));
    expect(response.status).toBe(202);
    expect(response.text).toBe("");
  });

  it.each(["GET", "DELETE", "PUT"])("answers %s with 405 and Allow: POST", async (verb) => {
    const response = await send(verb);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  it("rejects invalid JSON with -32700 and 400", async () => {
    const response = await rawPost("{not json");
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(-32700);
  });

  it("rejects a batch with -32600 and 400", async () => {
    const response = await rawPost(JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "tools/list" }]));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(-32600);
  });

  it.each([
    // Nothing was asked: the refusal of a response names no id (it answers no request), as the transport allows.
    ["a response sent by the client", { jsonrpc: "2.0", id: 9, result: {} }, undefined],
    ["a response with both result and error", { jsonrpc: "2.0", id: 9, result: {}, error: {} }, 9],
    ["a null id", { jsonrpc: "2.0", id: null, method: "tools/list", params: {} }, undefined],
    // 2^60 parses as a number, but most above 2^53 do not survive the parse: an answer could not echo what was sent.
    ["an integer id beyond 2^53", { jsonrpc: "2.0", id: 2 ** 60, method: "tools/list", params: {} }, undefined],
    ["a wrong jsonrpc version", { jsonrpc: "1.0", id: 9, method: "tools/list" }, 9],
    ["non-object params", { jsonrpc: "2.0", id: 9, method: "tools/list", params: [1] }, 9],
  ])("rejects %s with -32600 and 400, echoing the id when it is readable", async (_, message, echoed) => {
    const response = await rawPost(JSON.stringify(message));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(-32600);
    expect(response.body.id).toBe(echoed);
  });

  it("refuses a non-JSON content type with 415", async () => {
    const response = await rawPost("{}", { ...standardHeaders("tools/list"), "content-type": "text/plain" });
    expect(response.status).toBe(415);
  });

  it("ignores Mcp-Session-Id and Last-Event-ID and never mints a session", async () => {
    const result = await post("tools/list", {}, { headers: { "mcp-session-id": "abc", "last-event-id": "7" } });
    expect(result.status).toBe(200);
    expect(result.headers.get("mcp-session-id")).toBeNull();
  });
});

describe("_meta", () => {
  it.each([
    ["no _meta", {}],
    ["no protocolVersion", { _meta: { "io.modelcontextprotocol/clientCapabilities": {} } }],
    ["no clientCapabilities", { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }],
    [
      "clientCapabilities that is not an object",
      { _meta: { ...meta(), "io.modelcontextprotocol/clientCapabilities": true } },
    ],
    ["an unknown log level", { _meta: meta({}, { "io.modelcontextprotocol/logLevel": "loud" }) }],
    ["a malformed clientInfo", { _meta: meta({}, { "io.modelcontextprotocol/clientInfo": { name: 1 } }) }],
  ])("rejects %s with -32602 and 400", async (_, params) => {
    const result = await postBare("server/discover", params, 42);
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe(-32602);
    expect(result.body.id).toBe(42);
  });

  it("serves a request without clientInfo", async () => {
    const { "io.modelcontextprotocol/clientInfo": _, ...rest } = meta();
    const result = await post("server/discover", { _meta: rest });
    expect(result.status).toBe(200);
    expect(result.body.result.supportedVersions).toContain("2026-07-28");
  });

  it("rejects an unsupported version with -32022, 400 and the supported list", async () => {
    const params = { _meta: { ...meta(), "io.modelcontextprotocol/protocolVersion": "v999.0.0" } };
    const result = await post("server/discover", params, { headers: { "mcp-protocol-version": "v999.0.0" } });
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe(-32022);
    expect(result.body.error.data).toEqual({
      requested: "v999.0.0",
      supported: expect.arrayContaining(["2026-07-28"]),
    });
  });
});

describe("mirrored headers", () => {
  const MIRRORED = { "mcp-param-label": "x", "mcp-param-count": "42", "mcp-param-flag": "true" };
  const callMirrored = (
    headers: Record<string, string | undefined>,
    args: Record<string, unknown> = { label: "x", count: 42, flag: true },
  ) => post("tools/call", { name: "mirrored_headers", arguments: args }, { headers });

  it.each([
    ["MCP-Protocol-Version that differs from _meta", { "mcp-protocol-version": "2025-11-25" }],
    ["Mcp-Method that differs from the body", { "mcp-method": "tools/list" }],
    ["Mcp-Method with different case", { "mcp-method": "TOOLS/CALL" }],
    [
      "Mcp-Method in base64 (only Mcp-Name and Mcp-Param-* may be encoded)",
      { "mcp-method": `=?base64?${btoa("tools/call")}?=` },
    ],
    ["Mcp-Name that differs from the body", { "mcp-name": "structured_sum" }],
    ["a missing Mcp-Param-Label", { "mcp-param-label": undefined }],
    ["Mcp-Param-Label that differs from the body", { "mcp-param-label": "y" }],
    ["Mcp-Param-Count that differs from the body", { "mcp-param-count": "43" }],
    ["Mcp-Param-Flag that differs from the body", { "mcp-param-flag": "false" }],
    ["Mcp-Param-Label with bad base64 padding", { "mcp-param-label": "=?base64?eA?=" }],
    ["Mcp-Param-Label with invalid base64 characters", { "mcp-param-label": "=?base64?e!!A=?=" }],
    ["Mcp-Param-Label padded with a no-break space (only space and tab are trimmed)", { "mcp-param-label": "x\u00a0" }],
  ])("rejects %s with -32020 and 400", async (_, changes) => {
    const result = await callMirrored({ ...MIRRORED, ...changes });
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe(-32020);
    expect(result.body.error.message).toMatch(/header/i);
  });

  it.each([
    ["missing MCP-Protocol-Version", "mcp-protocol-version"],
    ["missing Mcp-Method", "mcp-method"],
    ["missing Mcp-Name", "mcp-name"],
  ])("rejects a %s header with -32020 and 400", async (_, name) => {
    const result = await post(
      "tools/call",
      { name: "mirrored_headers", arguments: { label: "x" } },
      { headers: { "mcp-param-label": "x", [name]: undefined } },
    );
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
    const result = await post("resources/read", { uri }, { headers: { "mcp-name": `=?base64?${btoa(uri)}?=` } });
    expect(result.status).toBe(200);
    expect(result.body.result.contents[0].text).toBe("twelve");
  });
});

describe("methods", () => {
  it.each(["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "no/such/method"])(
    "answers %s with -32601 and 404",
    async (method) => {
      const result = await post(method, {});
      expect(result.status).toBe(404);
      expect(result.body.error.code).toBe(-32601);
    },
  );

  it("discovers only the capabilities that exist, with caching hints and server identity", async () => {
    const { body } = await post("server/discover", {});
    expect(body.result).toMatchObject({
      resultType: "complete",
      supportedVersions: hasFeature("legacy")
        ? ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"]
        : ["2026-07-28"],
      capabilities: { tools: {}, prompts: {}, resources: {}, completions: {} },
      ttlMs: expect.any(Number),
      cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: PACKAGE.name, version: expect.any(String) } },
    });
  });

  it("lists tools in a deterministic order with caching hints", async () => {
    const first = await post("tools/list", {});
    const second = await post("tools/list", {});
    const names = first.body.result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toEqual([...names].sort());
    expect(second.body.result.tools).toEqual(first.body.result.tools);
    expect(first.body.result).toMatchObject({
      resultType: "complete",
      ttlMs: expect.any(Number),
      cacheScope: "public",
    });
  });

  it("answers unknown tools and prompts with -32602 (HTTP 200)", async () => {
    const tool = await post("tools/call", { name: "nope", arguments: {} });
    const prompt = await post("prompts/get", { name: "nope" });
    for (const result of [tool, prompt]) {
      expect(result.status).toBe(200);
      expect(result.body.error.code).toBe(-32602);
    }
  });

  it("answers an unknown resource with -32602 and data.uri (HTTP 200)", async () => {
    const result = await post("resources/read", { uri: "fixture://items/999" });
    expect(result.status).toBe(200);
    expect(result.body.error).toMatchObject({ code: -32602, data: { uri: "fixture://items/999" } });
  });

  it("answers an invalid cursor with -32602", async () => {
    const result = await post("tools/list", { cursor: "not-a-cursor" });
    expect(result.body.error.code).toBe(-32602);
  });

  it("reports invalid tool arguments as an isError result the model can act on", async () => {
    const result = await post("tools/call", { name: "structured_sum", arguments: { a: "one", b: 2 } });
    expect(result.status).toBe(200);
    expect(result.body.result.isError).toBe(true);
    expect(result.body.result.content[0].text).toMatch(/a: .*expected number/);
  });

  it("returns structured output with its JSON text", async () => {
    const result = await post("tools/call", { name: "structured_sum", arguments: { a: 2, b: 3 } });
    expect(result.body.result.structuredContent).toEqual({ sum: 5 });
    expect(JSON.parse(result.body.result.content[0].text)).toEqual({ sum: 5 });
  });

  it("reads a fixed resource and a templated one, with caching hints", async () => {
    const about = await post("resources/read", { uri: "fixture://about" });
    expect(about.body.result).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public", resultType: "complete" });
    const item = await post("resources/read", { uri: "fixture://items/12" });
    expect(item.body.result.contents[0]).toEqual({ uri: "fixture://items/12", mimeType: "text/plain", text: "twelve" });
    expect(item.body.result).toMatchObject({ ttlMs: 0, cacheScope: "private" });
  });

  it("completes prompt arguments and template variables", async () => {
    const prompt = await post("completion/complete", {
      ref: { type: "ref/prompt", name: "draft" },
      argument: { name: "style", value: "b" },
    });
    expect(prompt.body.result.completion).toEqual({ values: ["bullet points"], total: 1, hasMore: false });
    const template = await post("completion/complete", {
      ref: { type: "ref/resource", uri: "fixture://items/{id}" },
      argument: { name: "id", value: "1" },
    });
    expect(template.body.result.completion.values).toEqual(["1", "12", "15"]);
  });

  it("takes a completion's context as the schema types it, and refuses anything else with -32602", async () => {
    const ask = (context: unknown) =>
      post("completion/complete", {
        ref: { type: "ref/prompt", name: "draft" },
        argument: { name: "style", value: "b" },
        context,
      });
    for (const context of [null, {}, { arguments: null }, { arguments: {} }, { arguments: { subject: "tea" } }])
      expect((await ask(context)).body.result.completion.values, JSON.stringify(context)).toEqual(["bullet points"]);
    for (const context of [5, "tea", { arguments: "subject" }, { arguments: { subject: 5 } }, { arguments: [] }]) {
      const refused = await ask(context);
      expect(refused.body.error, JSON.stringify(context)).toMatchObject({
        code: -32602,
        message: "params.context must be { arguments?: { [name: string]: string } }",
      });
    }
  });

  it("answers with plain JSON and sends no log messages when the client asked for neither", async () => {
    const result = await post("tools/call", { name: "progress_steps", arguments: { steps: 2, delay_ms: 1 } });
    expect(result.type).toBe("application/json");
    expect(result.messages).toHaveLength(1);
  });
});

describe("Origin", () => {
  it("refuses a foreign Origin with 403 and accepts the same origin", async () => {
    expect((await post("server/discover", {}, { headers: { origin: "https://evil.example" } })).status).toBe(403);
    expect((await post("server/discover", {}, { headers: { origin: "http://localhost" } })).status).toBe(200);
  });

  it("lets an allowed origin through with CORS headers, and answers its preflight", async () => {
    const result = await post("server/discover", {}, { headers: { origin: "https://app.example" } });
    expect(result.status).toBe(200);
    expect(result.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const preflight = await send("OPTIONS", {
      origin: "https://app.example",
      "access-control-request-method": "POST",
      "access-control-request-headers":
        "content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-locale, x-evil",
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST");
    expect(preflight.headers.get("access-control-allow-headers")).toBe(
      "content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-locale",
    );
    expect(preflight.headers.get("access-control-expose-headers")).toMatch(/WWW-Authenticate/);
  });

  it("with every origin allowed, answers any origin's preflight", async () => {
    const open = await createTestServer({ ...FIXTURES, env: { NITRO_MCP_ALLOWED_ORIGINS: "*" } });
    const named = await open.fetch(
      new Request("http://localhost/mcp", {
        method: "OPTIONS",
        headers: { origin: "https://any.example", "access-control-request-method": "POST" },
      }),
    );
    expect(named.status).toBe(204);
    expect(named.headers.get("access-control-allow-origin")).toBe("https://any.example");
  });

  it("refuses the preflight of a foreign origin with 403", async () => {
    const preflight = await send("OPTIONS", {
      origin: "https://evil.example",
      "access-control-request-method": "POST",
    });
    expect(preflight.status).toBe(403);
  });
});

describe("pagination", () => {
  it("walks tools/list page by page with opaque cursors (NITRO_MCP_PAGE_SIZE=2)", async () => {
    const small = (await createTestServer({ ...FIXTURES, env: { NITRO_MCP_PAGE_SIZE: "2" } })).connect();
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { body } = await small.request("tools/list", cursor ? { cursor } : {});
      expect(body.result.tools.length).toBeLessThanOrEqual(2);
      expect(body.result).toMatchObject({ ttlMs: expect.any(Number), cacheScope: "public" });
      names.push(...body.result.tools.map((tool: { name: string }) => tool.name));
      cursor = body.result.nextCursor;
      pages++;
    } while (cursor);
    const all = (await post("tools/list", {})).body.result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / 2));
  });
});
