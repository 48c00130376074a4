/** The official 2026-07-28 client against the real server: discover, list, call, prompts, resources, progress. */
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectModernClient } from "../helpers/clients";
import { startServer, type RunningServer } from "../helpers/server.mjs";

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
    expect(client.getServerVersion()).toMatchObject({ name: "mcp-edge-template" });
  });

  it("lists and calls tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["add", "countdown", "delete_note", "greet", "list_notes", "wizard"]),
    );
    const sum = await client.callTool({ name: "add", arguments: { a: 20, b: 22 } });
    expect(sum.structuredContent).toEqual({ sum: 42 });
    const notes = await client.callTool({ name: "list_notes", arguments: {} });
    expect(notes.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("#12 Conference talk") });
  });

  it("mirrors x-mcp-header parameters the server then verifies", async () => {
    const greeting = await client.callTool({ name: "greet", arguments: { name: "Zoë", locale: "de" } });
    expect(greeting.content[0]).toMatchObject({ text: "Hallo, Zoë!" });
  });

  it("receives progress notifications", async () => {
    const progress: number[] = [];
    const result = await client.callTool(
      { name: "countdown", arguments: { from: 3, delay_ms: 5 } },
      { onprogress: (event) => progress.push(event.progress) },
    );
    expect(progress).toEqual([0, 1, 2, 3]);
    expect(result.content[0]).toMatchObject({ text: "Lift-off!" });
  });

  it("lists and gets prompts, with completion", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(["summarize_note", "write_note"]);
    const prompt = await client.getPrompt({ name: "summarize_note", arguments: { note_id: "15", style: "haiku" } });
    expect(prompt.messages[0]!.content).toMatchObject({ type: "text", text: expect.stringContaining("Plant care") });
    const completion = await client.complete({ ref: { type: "ref/prompt", name: "summarize_note" }, argument: { name: "note_id", value: "1" } });
    expect(completion.completion.values).toEqual(expect.arrayContaining(["12", "15"]));
  });

  it("lists resources and templates and reads them", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(expect.arrayContaining(["info://about", "note://12", "notes://export"]));
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: "note://{id}" })]);
    const note = await client.readResource({ uri: "note://15" });
    expect(note.contents[0]).toMatchObject({ uri: "note://15", text: expect.stringContaining("fern") });
  });
});
