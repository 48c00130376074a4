/**
 * The examples a 2025-era client meets first, asked on its POST's stream (server/features/legacy/ask.ts) by the official
 * 1.x client against the Node build: `delete_note` (accept, decline, and exactly once) and `wizard`'s three rounds; and
 * what the client declared at `initialize` read on later requests: `notes://export` asks it when it declared elicitation,
 * `notes_board` says the board shows the notes when it declared the MCP Apps extension.
 * The protocol itself is tested on the fixtures (tests/e2e/legacy-ask.test.ts); this file goes with the examples.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerLegacy,
  fillFirstField,
  initializeLegacy,
  officialLegacyClient,
  openLegacyCall,
  postLegacy,
} from "../helpers/legacy";
import { startServer, type RunningServer } from "../helpers/server.mjs";
import { hasFeature } from "../helpers/project.mjs";

// Asking 2025-era clients and their resource updates travel on the message bus (server/features/message-bus).
describe.runIf(hasFeature("message-bus"))("with the message bus", () => {
  const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  describe("a 2025-11-25 client (the official 1.x client) is asked by the examples", () => {
    it("delete_note: accept deletes, decline keeps", async () => {
      const { client, asked } = await officialLegacyClient(server.url, (params) =>
        params.message.includes("note 7") ? { action: "accept", content: { confirm: true } } : { action: "decline" },
      );
      expect(text(await client.callTool({ name: "delete_note", arguments: { note_id: "7" } }))).toBe(
        'Deleted note 7 ("Groceries").',
      );
      expect(text(await client.callTool({ name: "delete_note", arguments: { note_id: "12" } }))).toBe(
        'Kept note 12 ("Conference talk"): the person chose decline.',
      );
      expect(asked.map((params) => params.message)).toEqual([
        'Delete note 7 ("Groceries")? This cannot be undone.',
        'Delete note 12 ("Conference talk")? This cannot be undone.',
      ]);
      const notes = JSON.stringify((await client.callTool({ name: "list_notes", arguments: {} })).content);
      expect(notes).not.toContain("Groceries");
      expect(notes).toContain("Conference talk");
      await client.close();
    });

    it("wizard: three rounds, one question each", async () => {
      const { client, asked } = await officialLegacyClient(
        server.url,
        fillFirstField({ name: "Ada", color: "green", size: 4 }),
      );
      expect(text(await client.callTool({ name: "wizard", arguments: {} }))).toBe("All set, Ada: a green one, size 4.");
      expect(asked.map((params) => params.message)).toEqual([
        "Step 1 of 3: what should we call you?",
        "Step 2 of 3: Ada, pick a colour.",
        "Step 3 of 3: how big should it be?",
      ]);
      await client.close();
    });

    it("notes://export asks a client that declared elicitation for the format, and gives markdown to one that did not", async () => {
      const { client, asked } = await officialLegacyClient(
        server.url,
        () => ({ action: "accept", content: { format: "json" } }),
        { elicitation: { form: {} } },
      );
      expect((await client.readResource({ uri: "notes://export" })).contents[0]).toMatchObject({
        mimeType: "application/json",
      });
      expect(asked.map((params) => params.message)).toEqual(["Export the notes as markdown or JSON?"]);
      const { client: silent } = await officialLegacyClient(server.url, () => ({ action: "cancel" }), {});
      expect((await silent.readResource({ uri: "notes://export" })).contents[0]).toMatchObject({
        mimeType: "text/markdown",
      });
      await Promise.all([client.close(), silent.close()]);
    });

    it.runIf(hasFeature("apps"))(
      "notes_board tells a client that declared the UI extension that its board shows the notes",
      async () => {
        const ui = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };
        const { client: host } = await officialLegacyClient(server.url, () => ({ action: "cancel" }), {
          extensions: ui,
        });
        const { client: plain } = await officialLegacyClient(server.url, () => ({ action: "cancel" }), {});
        const board = { name: "notes_board", arguments: {} };
        const shown = text(await host.callTool(board));
        expect(shown).toMatch(/^\d+ notes, shown on the board:\n#/);
        expect(shown).toContain("#12 Conference talk");
        expect(text(await plain.callTool(board))).not.toMatch(/shown on the board/);
        await Promise.all([host.close(), plain.close()]);
      },
    );

    it("delete_note exactly once: 50 concurrent answers to its question → one 202, 49 refusals, one deletion", async () => {
      const session = (await initializeLegacy(server.url, { elicitation: {} }))!;
      const call = await openLegacyCall(server.url, session, "delete_note", { note_id: "15" });
      const question = (await call.next())!;
      const answer = { action: "accept", content: { confirm: true } };
      const statuses = await Promise.all(
        Array.from({ length: 50 }, () => answerLegacy(server.url, session, question.id, answer).then((r) => r.status)),
      );
      expect(statuses.filter((status) => status === 202)).toHaveLength(1);
      expect(statuses.filter((status) => status === 400)).toHaveLength(49);
      expect((await call.final())!.result.content[0].text).toBe('Deleted note 15 ("Plant care").');
      const again = await postLegacy(server.url, undefined, {
        id: 3,
        method: "tools/call",
        params: { name: "delete_note", arguments: { note_id: "15" } },
      });
      expect(again.body!.result.content[0].text).toMatch(/There is no note with id 15/);
    });
  });
});
