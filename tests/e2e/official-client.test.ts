/** The official 2026-07-28 client against the real server: discover, list, call, prompts, resources, progress. */
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectModernClient } from "../helpers/clients";
import { startServer, type RunningServer } from "../helpers/server.mjs";
import { PACKAGE } from "../helpers/project.mjs";

let server: RunningServer;
let client: Client;
beforeAll(async () => {
  server = await startServer();
  client = await connectModernClient(server.url);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

describe("official client (@modelcontextprotocol/client, pinned to 2026-07-28)", () => {
  it("negotiates the modern era through server/discover", () => {
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {}, completions: {} });
    expect(client.getServerVersion()).toMatchObject({ name: PACKAGE.name });
  });

  it("lists and calls tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["confirm_increment", "mirrored_headers", "progress_steps", "structured_sum"]),
    );
    const sum = await client.callTool({ name: "structured_sum", arguments: { a: 20, b: 22 } });
    expect(sum.structuredContent).toEqual({ sum: 42 });
  });

  it("mirrors x-mcp-header parameters the server then verifies", async () => {
    const echoed = await client.callTool({
      name: "mirrored_headers",
      arguments: { label: "Zoë", count: 3, flag: false },
    });
    expect(echoed.content[0]).toMatchObject({ text: "Zoë|3|false" });
  });

  it("receives progress notifications", async () => {
    const progress: number[] = [];
    const result = await client.callTool(
      { name: "progress_steps", arguments: { steps: 3, delay_ms: 5 } },
      { onprogress: (event) => progress.push(event.progress) },
    );
    expect(progress).toEqual([0, 1, 2, 3]);
    expect(result.content[0]).toMatchObject({ text: "done" });
  });

  it("lists and gets prompts, with completion", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(expect.arrayContaining(["asking_prompt", "draft"]));
    const prompt = await client.getPrompt({ name: "draft", arguments: { subject: "ferns", style: "haiku" } });
    expect(prompt.messages[0]!.content).toMatchObject({ type: "text", text: "Write about ferns as haiku." });
    const completion = await client.complete({
      ref: { type: "ref/prompt", name: "draft" },
      argument: { name: "style", value: "o" },
    });
    expect(completion.completion.values).toEqual(["one sentence"]);
  });

  it("lists resources and templates and reads them", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(
      expect.arrayContaining(["fixture://about", "fixture://items/12"]),
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual(
      expect.arrayContaining([expect.objectContaining({ uriTemplate: "fixture://items/{id}" })]),
    );
    const item = await client.readResource({ uri: "fixture://items/15" });
    expect(item.contents[0]).toMatchObject({ uri: "fixture://items/15", text: "fifteen" });
  });
});
