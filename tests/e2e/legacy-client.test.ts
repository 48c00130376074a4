/**
 * Older clients: the official `@modelcontextprotocol/sdk` 1.x client (2025-11-25, initialize
 * handshake) against the same stateless endpoint, declaring no capability (being asked is
 * tests/e2e/legacy-ask.test.ts). Era selection and the 2025 wire are tested in-process
 * (tests/unit/protocol/legacy.test.ts).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueKey } from "../helpers/flows";
import { startServer, type RunningServer } from "../helpers/server.mjs";
import { hasFeature, PACKAGE } from "../helpers/project.mjs";

let server: RunningServer;
let client: Client;
let transport: StreamableHTTPClientTransport;
beforeAll(async () => {
  server = await startServer();
  client = new Client({ name: "legacy-test", version: "1.0.0" }, { capabilities: {} });
  transport = new StreamableHTTPClientTransport(new URL(server.url));
  await client.connect(transport);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

describe("the official 1.x client (2025-11-25)", () => {
  it("initializes with a sealed session and negotiates 2025-11-25", () => {
    expect(transport.sessionId).toMatch(/^v1\./);
    expect(client.getServerVersion()).toMatchObject({ name: PACKAGE.name });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {}, logging: {} });
  });

  it("answers ping and logging/setLevel", async () => {
    await expect(client.ping()).resolves.toEqual({});
    await expect(client.setLoggingLevel("debug")).resolves.toEqual({});
  });

  it("lists and calls tools, with results in the 2025 shape", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("confirm_increment");
    const sum = await client.callTool({ name: "structured_sum", arguments: { a: 1, b: 2 } });
    expect(sum.structuredContent).toEqual({ sum: 3 });
    expect(sum).not.toHaveProperty("resultType");
    expect(text(await client.callTool({ name: "mirrored_headers", arguments: { label: "Ana", count: 2 } }))).toBe(
      "Ana|2|-",
    );
  });

  it("receives progress on the POST's SSE response", async () => {
    const progress: number[] = [];
    const result = await client.callTool({ name: "progress_steps", arguments: { steps: 2, delay_ms: 5 } }, undefined, {
      onprogress: (event) => progress.push(event.progress),
    });
    expect(progress).toEqual([0, 1, 2]);
    expect(text(result)).toBe("done");
  });

  it("gets prompts, reads resources and templates, completes", async () => {
    const prompt = await client.getPrompt({ name: "draft", arguments: { subject: "tea" } });
    expect(prompt.messages[0]!.content).toMatchObject({ text: "Write about tea." });
    const item = await client.readResource({ uri: "fixture://items/15" });
    expect(item.contents[0]).toMatchObject({ uri: "fixture://items/15", text: "fifteen" });
    expect(item).not.toHaveProperty("ttlMs");
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual(
      expect.arrayContaining([expect.objectContaining({ uriTemplate: "fixture://items/{id}" })]),
    );
    const completion = await client.complete({
      ref: { type: "ref/prompt", name: "draft" },
      argument: { name: "style", value: "h" },
    });
    expect(completion.completion.values).toEqual(["haiku"]);
  });

  it("a tool that must ask a client that cannot answer refuses to act, and says why", async () => {
    const key = uniqueKey();
    const result = await client.callTool({ name: "confirm_increment", arguments: { key } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /^This tool needs to ask you something first \(elicitation \(form\), needed to ask for confirm\), which this client did not declare when it connected: .* this client uses 2025-11-25\.$/,
    );
    expect((await client.callTool({ name: "read_counter", arguments: { key } })).structuredContent).toEqual({
      value: 0,
    });
  });

  it("turns a URL-mode question into -32042 with the URL", async () => {
    const error = await client.callTool({ name: "open_link", arguments: {} }).catch((caught) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(-32042);
    expect(error.data.elicitations[0]).toMatchObject({
      mode: "url",
      url: "https://example.test/step",
      elicitationId: expect.any(String),
    });
  });

  it("ends a prompt that needs to ask with a clear error, and lets a resource degrade", async () => {
    const error = await client.getPrompt({ name: "asking_prompt" }).catch((caught) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect(error.message).toMatch(
      /This prompt needs to ask you something first \(elicitation \(form\), needed to ask for brief\), which this client did not declare/,
    );
    const read = await client.readResource({ uri: "fixture://asks" });
    expect(read.contents[0]).toMatchObject({ text: "plain (not asked)" });
  });

  it("uses the revision's resource-not-found code (-32002)", async () => {
    const error = await client.readResource({ uri: "fixture://items/404" }).catch((caught) => caught);
    expect(error.code).toBe(-32002);
    expect(error.data).toEqual({ uri: "fixture://items/404" });
  });
});

describe("legacy support turned off (NITRO_MCP_LEGACY=false)", () => {
  it("the official 1.x client is told which versions the server speaks", async () => {
    const modernOnly = await startServer({ env: { NITRO_MCP_LEGACY: "false" } });
    const legacy = new Client({ name: "legacy-test", version: "1.0.0" });
    const error = await legacy
      .connect(new StreamableHTTPClientTransport(new URL(modernOnly.url)))
      .catch((caught) => caught);
    expect(String(error)).toMatch(/this server speaks MCP 2026-07-28 only/);
    await modernOnly.stop();
  });
});

describe.runIf(hasFeature("rate-limit"))("the official 1.x client against a rate limit", () => {
  it("connects and lists again after its tool calls used up NITRO_MCP_RATE_LIMIT (the requests to connect have their own budget)", async () => {
    const limited = await startServer({ env: { NITRO_MCP_RATE_LIMIT: "2/1h" } });
    const connect = async () => {
      const host = new Client({ name: "rate-limited-host", version: "1.0.0" }, { capabilities: {} });
      await host.connect(new StreamableHTTPClientTransport(new URL(limited.url)));
      return host;
    };
    try {
      const first = await connect();
      const call = () => first.callTool({ name: "structured_sum", arguments: { a: 1, b: 2 } });
      await call();
      await call();
      await expect(call()).rejects.toThrow(/Rate limit exceeded \(requests\)/);
      await first.close();
      // A host reconnecting, as one does after an error: initialize, notifications/initialized, tools/list.
      const again = await connect();
      expect((await again.listTools()).tools.length).toBeGreaterThan(0);
      await again.close();
    } finally {
      await limited.stop();
    }
  });
});
