/**
 * The notes board's tools in-process: `notes_board` gives a client that renders the board a single-use delete token per
 * note (and a text-only client none), and `delete_note_from_board` deletes with one, once, for its own note only. The
 * board itself, in a real host: tests/apps/notes-board-example.test.ts.
 */
import { describe, expect, it } from "vitest";
import { createTestServer, type TestClient } from "../helpers/in-process";
import { hasFeature } from "../helpers/project.mjs";

const RENDERS_UI = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
const DEFINITIONS = ["server/tools/notes_board.ts", "server/tools/delete_note_from_board.ts"];
const ERAS = hasFeature("legacy") ? (["2026-07-28", "2025-11-25"] as const) : (["2026-07-28"] as const);

interface BoardNote {
  id: string;
  title: string;
  deleteToken?: string;
}
const board = async (client: TestClient): Promise<BoardNote[]> =>
  ((await client.callTool("notes_board")).structuredContent as { notes: BoardNote[] }).notes;
const tokenOf = (notes: BoardNote[], id: string) => notes.find((note) => note.id === id)!.deleteToken;
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
  it("gives each note a delete token on the board, and a text-only client none", async () => {
    const client = await boardClient(era, RENDERS_UI);
    const notes = await board(client);
    expect(notes.map((note) => note.id)).toEqual(["7", "12", "15"]);
    for (const note of notes) expect(note.deleteToken).toMatch(/^v1\./);
    const textOnly = await boardClient(era);
    expect((await board(textOnly)).map((note) => note.deleteToken)).toEqual([undefined, undefined, undefined]);
  });

  it("deletes a note with its token, once", async () => {
    const client = await boardClient(era, RENDERS_UI);
    const call = { note_id: "12", token: tokenOf(await board(client), "12") };
    expect(textOf(await client.callTool("delete_note_from_board", call))).toBe('Deleted note 12 ("Conference talk").');
    const again = await client.callTool("delete_note_from_board", call);
    expect(again.isError).toBe(true);
    expect(textOf(again)).toBe("This board's delete for note 12 has expired or was used: open the board again.");
    expect((await board(client)).map((note) => note.id)).toEqual(["7", "15"]);
  });

  it("refuses a token for another note, and deletes nothing", async () => {
    const client = await boardClient(era, RENDERS_UI);
    const result = await client.callTool("delete_note_from_board", {
      note_id: "7",
      token: tokenOf(await board(client), "15"),
    });
    expect(result.isError).toBe(true);
    expect((await board(client)).map((note) => note.id)).toEqual(["7", "12", "15"]);
  });
});
