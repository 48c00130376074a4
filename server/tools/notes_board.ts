import { clientRendersUi, issueToken } from "#mcp-apps";
import { listNotes } from "../examples/notes";

/**
 * The notes on a board (server/ui/notes-board/), where the person can delete one: the board asks them to confirm, then
 * calls `delete_note_from_board` with the single-use token each note carries here. Text-only clients get the list as
 * text, and no tokens (they have no board to confirm on; `delete_note` asks them itself).
 */
export default defineTool({
  name: "notes_board",
  title: "Notes board",
  description:
    "Shows every note on an interactive board where the person can delete notes (each deletion asks them to confirm). Clients without UIs get the list as text.",
  annotations: { readOnlyHint: true, openWorldHint: false },
  ui: { resourceUri: "ui://notes-board" },
  async run(_args, mcp) {
    const notes = await listNotes();
    const lines = notes.map((note) => `#${note.id} ${note.title}: ${note.text}`).join("\n");
    if (!clientRendersUi(mcp))
      return { content: [{ type: "text", text: lines || "There are no notes." }], structuredContent: { notes } };
    // Each note with the token its delete button presents to delete_note_from_board.
    const onBoard = await Promise.all(
      notes.map(async (note) => ({ ...note, deleteToken: await issueToken(mcp, `delete note ${note.id}`) })),
    );
    const text = notes.length ? `${notes.length} notes, shown on the board:\n${lines}` : "There are no notes.";
    return { content: [{ type: "text", text }], structuredContent: { notes: onBoard } };
  },
});
