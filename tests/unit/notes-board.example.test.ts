/**
 * The notes board's tools in-process: `notes_board` gives a client that renders the board a single-use delete token per
 * note in the result's `_meta` (and a text-only client none), and `delete_note_from_board` deletes with one, once, for
 * its own note only. The
 * board itself, in a real host: tests/apps/notes-board-example.test.ts.
 */
import { describe, expect, it } from "vitest";
import { createTestServer, type TestClient } from "../helpers/in-process";
import { hasFeature } from "../helpers/project.mjs";

const RENDERS_UI = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
const DEFINITIONS = ["server/tools/notes_board.ts", "server/tools/delete_note_from_board.ts"];
const ERAS = hasFeature("legacy") ? (["2026-07-28", "2025-11-25"] as const) : (["2026-07-28"] as const);

interface Board {
  ids: string[];
  /** What the model may see: the text and the structured content. */
  seen: string;
  tokens?: Record<string, string>;
}
async function board(client: TestClient): Promise<Board> {
  const result = await client.callTool("notes_board");
  const ids = (result.structuredContent as { notes: { id: string }[] }).notes.map((note) => note.id);
  const tokens = (result._meta as { deleteTokens?: Record<string, string> } | undefined)?.deleteTokens;
  return { ids, seen: JSON.stringify([result.content, result.structuredContent]), tokens };
}
const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

/** A client of a fresh server (its own notes); a 2025-era client declares its capabilities at `initialize`. */
async function boardClient(era: (typeof ERAS)[number], capabilities?: typeof RENDERS_UI): Promise<TestClient> {
  const server = await createTestServer({ definitions: DEFINITIONS });
  if (era === "2026-07-28") return server.connect({ capabilities });
  const params = { protocolVersion: era, capabilities: capabilities ?? {}, clientInfo: { name: "host", version: "1" } };
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const initialized = await server.post({ jsonrpc: "2.0", id: 0, method: "initialize", params }, headers);
  return server.connect({ era, headers: { "mcp-session-id": initialized.headers.get("mcp-session-id")! } });
}

describe.each(ERAS)("the notes board, %s", (era) => {
  it("gives a board each note's delete token in _meta, never where the model reads, and a text-only client none", async () => {
    const client = await boardClient(era, RENDERS_UI);
    const { ids, seen, tokens } = await board(client);
    expect(ids).toEqual(["7", "12", "15"]);
    expect(Object.keys(tokens ?? {})).toEqual(["7", "12", "15"]);
    for (const token of Object.values(tokens ?? {})) {
      expect(token).toMatch(/^v1\./);
      expect(seen).not.toContain(token);
    }
    expect((await board(await boardClient(era))).tokens).toBeUndefined();
  });

  it("deletes a note with its token, once", async () => {
    const client = await boardClient(era, RENDERS_UI);
    const call = { note_id: "12", token: (await board(client)).tokens?.["12"] };
    expect(textOf(await client.callTool("delete_note_from_board", call))).toBe('Deleted note 12 ("Conference talk").');
    const again = await client.callTool("delete_note_from_board", call);
    expect(again.isError).toBe(true);
    expect(textOf(again)).toBe("This board's delete for note 12 has expired or was used: open the board again.");
    expect((await board(client)).ids).toEqual(["7", "15"]);
  });

  it("refuses a token for another note, and deletes nothing", async () => {
    const client = await boardClient(era, RENDERS_UI);
    const result = await client.callTool("delete_note_from_board", {
      note_id: "7",
      token: (await board(client)).tokens?.["15"],
    });
    expect(result.isError).toBe(true);
    expect((await board(client)).ids).toEqual(["7", "12", "15"]);
  });
});
