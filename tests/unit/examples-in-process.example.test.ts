/**
 * The shipped examples tested in-process (tests/helpers/in-process.ts): no build, no server, milliseconds
 * a test. The model for testing a tool of your own; a fork that deletes the examples deletes this file.
 */
import { ok as assert } from "node:assert";
import { isInputRequiredResult } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createTestClient } from "../helpers/in-process";
import { hasFeature } from "../helpers/project.mjs";
import { openListen, resourceUpdated } from "../helpers/rpc";

const FORMS = { elicitation: { form: {} } };
const YES = { confirm: { action: "accept", content: { confirm: true } } };

describe("delete_note", () => {
  it("asks, then deletes on yes", async () => {
    const client = await createTestClient({
      definitions: ["server/tools/delete_note.ts", "server/tools/list_notes.ts"],
      capabilities: FORMS,
    });
    const result = await client.callTool("delete_note", { note_id: "7" }, { answers: YES });
    expect(result.content).toEqual([{ type: "text", text: 'Deleted note 7 ("Groceries").' }]);
    expect(JSON.stringify((await client.callTool("list_notes")).content)).not.toContain("Groceries");
  });

  it.runIf(hasFeature("message-bus"))(
    "tells a client listening for the note and the export (subscriptions/listen) when it deletes, and only then",
    async () => {
      const definitions = ["server/tools/delete_note.ts", "server/resources/note.ts", "server/resources/export.ts"];
      const client = await createTestClient({ definitions, capabilities: FORMS });
      const { id, first, stream } = await openListen(
        (request) => client.server.stream(request),
        "http://localhost/mcp",
        { resourceSubscriptions: ["note://12", "notes://export"] },
      );
      expect(first?.params.notifications).toEqual({ resourceSubscriptions: ["note://12", "notes://export"] });
      // Kept (nothing changes), then note 7 (its own URI is not listened to, the export is), then note 12.
      await client.callTool("delete_note", { note_id: "12" }, { answers: "decline" });
      await client.callTool("delete_note", { note_id: "7" }, { answers: YES });
      await client.callTool("delete_note", { note_id: "12" }, { answers: YES });
      expect([await stream.next(), await stream.next(), await stream.next()]).toEqual([
        resourceUpdated(id, "notes://export"),
        resourceUpdated(id, "note://12"),
        resourceUpdated(id, "notes://export"),
      ]);
      await stream.close();
    },
  );

  it("keeps the note on decline", async () => {
    const client = await createTestClient({ definitions: ["server/tools/delete_note.ts"], capabilities: FORMS });
    const result = await client.callTool("delete_note", { note_id: "12" }, { answers: "decline" });
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([
      { type: "text", text: 'Kept note 12 ("Conference talk"): the person chose decline.' },
    ]);
  });

  it("asks one form question, with a sealed single-use state", async () => {
    const client = await createTestClient({ definitions: ["server/tools/delete_note.ts"], capabilities: FORMS });
    const asked = await client.callTool("delete_note", { note_id: "15" }, { stopAtInputRequired: true });
    assert(isInputRequiredResult(asked), "delete_note asks first");
    expect(asked.inputRequests?.confirm).toMatchObject({
      method: "elicitation/create",
      params: { mode: "form", message: expect.stringContaining("cannot be undone") },
    });
    const retry = { inputResponses: YES, requestState: asked.requestState };
    expect(
      (await client.call("tools/call", { name: "delete_note", arguments: { note_id: "15" }, ...retry })).content,
    ).toEqual([{ type: "text", text: expect.stringMatching(/^Deleted/) }]);
    await expect(
      client.call("tools/call", { name: "delete_note", arguments: { note_id: "15" }, ...retry }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("refuses to ask a client that cannot answer forms", async () => {
    const client = await createTestClient({ definitions: ["server/tools/delete_note.ts"] });
    await expect(client.callTool("delete_note", { note_id: "7" })).rejects.toMatchObject({ code: -32021 });
  });
});

describe("wizard", () => {
  it("asks three questions, one a round, and sums up", async () => {
    const asked: string[] = [];
    const client = await createTestClient({ definitions: ["server/tools/wizard.ts"], capabilities: FORMS });
    const result = await client.callTool(
      "wizard",
      {},
      {
        answers: (_question, key) => {
          asked.push(key);
          return {
            action: "accept",
            content: { name: { name: "Ada" }, color: { color: "green" }, size: { size: 3 } }[key],
          };
        },
      },
    );
    expect(asked).toEqual(["name", "color", "size"]);
    expect(result.content).toEqual([{ type: "text", text: "All set, Ada: a green one, size 3." }]);
  });

  it("stops where the person cancels", async () => {
    const client = await createTestClient({ definitions: ["server/tools/wizard.ts"], capabilities: FORMS });
    const answers = { name: { action: "accept", content: { name: "Ada" } }, color: "cancel" } as const;
    const result = await client.callTool("wizard", {}, { answers });
    expect(result.content).toEqual([
      { type: "text", text: 'Wizard stopped at step 2 of 3 because you chose "cancel". Nothing was saved.' },
    ]);
  });
});

describe.runIf(hasFeature("legacy"))("as a 2025-era client", () => {
  it("adds, and is told that delete_note needs a 2026-07-28 client", async () => {
    const client = await createTestClient({
      definitions: ["server/tools/add.ts", "server/tools/delete_note.ts"],
      era: "2025-11-25",
    });
    expect((await client.callTool("add", { a: 20, b: 22 })).structuredContent).toEqual({ sum: 42 });
    const refused = await client.callTool("delete_note", { note_id: "7" });
    expect(refused.isError).toBe(true);
    expect(refused.content).toEqual([
      { type: "text", text: expect.stringMatching(/requires an MCP client that supports protocol 2026-07-28/) },
    ]);
  });
});
