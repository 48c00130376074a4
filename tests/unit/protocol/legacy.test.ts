/**
 * 2025-era requests on the same endpoint, in-process: era selection, the 2025 result shapes and error
 * codes, and legacy support turned off. The official 1.x client itself is tested end to end
 * (tests/e2e/legacy-client.test.ts).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestClient, type TestServer } from "../../helpers/in-process";
import { meta, standardHeaders } from "../../helpers/rpc";
import { FIXTURES, readCounter, uniqueKey } from "./flows";
import { PACKAGE, hasFeature } from "../../helpers/project.mjs";

let server: TestServer;
let legacy: TestClient;
beforeAll(async () => {
  server = await createTestServer(FIXTURES);
  legacy = server.connect({ era: "2025-11-25" });
});

/** A raw legacy request: no `_meta` envelope, no Mcp-Method. */
const legacyPost = (body: object, headers: Record<string, string> = { "mcp-protocol-version": "2025-11-25" }) =>
  server.post(
    { jsonrpc: "2.0", id: 1, ...body },
    { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
  );

const INITIALIZE = { capabilities: {}, clientInfo: { name: "raw", version: "1" } };

describe("era selection", () => {
  it.each([
    ["2025-11-25", "2025-11-25"],
    ["2025-06-18", "2025-06-18"],
    ["2025-03-26", "2025-03-26"],
    ["1999-01-01", "2025-11-25"],
    ["2026-07-28", "2025-11-25"],
  ])("initialize asking for %s answers %s, with a sealed session", async (requested, answered) => {
    const { body, headers } = await legacyPost(
      { method: "initialize", params: { protocolVersion: requested, ...INITIALIZE } },
      {},
    );
    expect(body.result).toMatchObject({
      protocolVersion: answered,
      serverInfo: { name: PACKAGE.name },
      capabilities: { tools: {}, logging: {} },
    });
    expect(body.result).not.toHaveProperty("resultType");
    expect(headers.get("mcp-session-id")).toMatch(/^v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+$/);
  });

  it("answers initialize without its required fields with -32602", async () => {
    const { body } = await legacyPost({ method: "initialize", params: { protocolVersion: "2025-11-25" } }, {});
    expect(body.error.code).toBe(-32602);
  });

  it("answers notifications/initialized with 202 and mints no session", async () => {
    const response = await server.post(
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { "content-type": "application/json", "mcp-protocol-version": "2025-11-25" },
    );
    expect(response.status).toBe(202);
    expect(response.headers.get("mcp-session-id")).toBeNull();
  });

  it("takes a request with no version header and no _meta as 2025-03-26", async () => {
    const { status, body } = await legacyPost({ method: "tools/list" }, {});
    expect(status).toBe(200);
    expect(body.result.tools.length).toBeGreaterThan(0);
    expect(body.result).not.toHaveProperty("ttlMs");
  });

  it("rejects an unknown version header with 400 and -32022", async () => {
    const { status, body } = await legacyPost({ method: "tools/list" }, { "mcp-protocol-version": "2024-11-05" });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({
      code: -32022,
      data: { requested: "2024-11-05", supported: expect.arrayContaining(["2026-07-28", "2025-11-25"]) },
    });
  });

  it("takes a 2026-07-28 version header without _meta as a 2026 request, which needs _meta", async () => {
    const { status, body } = await legacyPost(
      { method: "tools/list", params: {} },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
    );
    expect(status).toBe(400);
    expect(body.error.code).toBe(-32602);
  });

  it("refuses a 2025 version in _meta, pointing at initialize", async () => {
    const params = { _meta: { ...meta(), "io.modelcontextprotocol/protocolVersion": "2025-11-25" } };
    const result = await server.post(
      { jsonrpc: "2.0", id: 3, method: "tools/list", params },
      { ...standardHeaders("tools/list"), "mcp-protocol-version": "2025-11-25" },
    );
    expect(result.status).toBe(400);
    expect(result.body.error).toMatchObject({ code: -32022, message: expect.stringMatching(/initialize/) });
  });

  it("keeps 2026-only methods out of the legacy era", async () => {
    const { body } = await legacyPost({ method: "server/discover", params: {} });
    expect(body.error.code).toBe(-32601);
  });

  it.each(["constructor", "toString", "__proto__", "valueOf", "hasOwnProperty"])(
    "answers a method named after an object's built-in %s with -32601",
    async (method) => {
      const { status, body } = await legacyPost({ method, params: {} });
      expect(status).toBe(200);
      expect(body).toEqual({ jsonrpc: "2.0", id: 1, error: expect.objectContaining({ code: -32601 }) });
    },
  );

  it("lists the legacy versions in server/discover", async () => {
    const result = await server.connect().call("server/discover");
    expect(result.supportedVersions).toEqual(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"]);
  });
});

describe("the 2025 wire", () => {
  it("answers ping and logging/setLevel", async () => {
    expect(await legacy.call("ping")).toEqual({});
    expect(await legacy.call("logging/setLevel", { level: "debug" })).toEqual({});
  });

  it("answers results in the 2025 shape: no resultType, no caching hints", async () => {
    const sum = await legacy.callTool("structured_sum", { a: 1, b: 2 });
    expect(sum.structuredContent).toEqual({ sum: 3 });
    expect(sum).not.toHaveProperty("resultType");
    const item = await legacy.readResource("fixture://items/15");
    expect(item.contents[0]).toMatchObject({ uri: "fixture://items/15", text: "fifteen" });
    expect(item).not.toHaveProperty("ttlMs");
  });

  it("needs no mirrored headers", async () => {
    expect((await legacy.callTool("mirrored_headers", { label: "Ana", count: 2 })).content).toEqual([
      { type: "text", text: "Ana|2|-" },
    ]);
  });

  it("a tool that must ask refuses to act, and says why", async () => {
    const key = uniqueKey();
    const result = await legacy.callTool("confirm_increment", { key });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: "text",
        text: expect.stringMatching(
          /requires an MCP client that supports protocol 2026-07-28; this client uses 2025-11-25/,
        ),
      },
    ]);
    expect(await readCounter(legacy, key)).toBe(0);
  });

  it("turns a URL-mode question into -32042 with the URL", async () => {
    await expect(legacy.callTool("open_link")).rejects.toMatchObject({
      code: -32042,
      data: {
        elicitations: [
          expect.objectContaining({ mode: "url", url: "https://example.test/step", elicitationId: expect.any(String) }),
        ],
      },
    });
  });

  it("ends a prompt that needs to ask with a clear error, and lets a resource degrade", async () => {
    await expect(legacy.getPrompt("asking_prompt")).rejects.toThrow(
      /requires an MCP client that supports protocol 2026-07-28/,
    );
    expect((await legacy.readResource("fixture://asks")).contents[0]).toMatchObject({ text: "plain (not asked)" });
  });

  it("uses the revision's resource-not-found code (-32002)", async () => {
    await expect(legacy.readResource("fixture://items/404")).rejects.toMatchObject({
      code: -32002,
      data: { uri: "fixture://items/404" },
    });
  });

  it.runIf(hasFeature("tasks"))("keeps the tasks extension out of initialize", async () => {
    const { body } = await legacyPost(
      { method: "initialize", params: { protocolVersion: "2025-11-25", ...INITIALIZE } },
      {},
    );
    expect(JSON.stringify(body.result.capabilities)).not.toContain("tasks");
    expect(JSON.stringify((await server.connect().call("server/discover")).capabilities)).toContain("tasks");
  });
});

describe("legacy support turned off (NITRO_MCP_LEGACY=false)", () => {
  it("answers initialize with 400 and -32022 naming the versions it speaks, and lists only 2026-07-28", async () => {
    const modernOnly = await createTestServer({ ...FIXTURES, env: { NITRO_MCP_LEGACY: "false" } });
    const initialize = await modernOnly.post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", ...INITIALIZE },
    });
    expect(initialize.status).toBe(400);
    expect(initialize.body.error).toMatchObject({
      code: -32022,
      message: expect.stringMatching(/this server speaks MCP 2026-07-28 only/),
      data: { supported: ["2026-07-28"], requested: "2025-11-25" },
    });
    expect((await modernOnly.connect().call("server/discover")).supportedVersions).toEqual(["2026-07-28"]);
  });
});
