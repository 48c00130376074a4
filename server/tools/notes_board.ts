import { clientRendersUi, issueToken } from "#mcp-apps";
import { listNotes } from "../examples/notes";

/**
 * The notes on a board (server/ui/notes-board/), where the person can delete one: the board asks them to confirm, then
 * calls `delete_note_from_board` with the note's single-use token from this result's `_meta`. Text-only clients get the
 * list as text, and no tokens (they have no board to confirm on; `delete_note` asks them itself).
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
    // Each note's token for the board's delete (delete_note_from_board), in `_meta`: hosts keep it from the model.
    const deleteTokens: Record<string, string> = {};
    for (const note of notes) {
      const token = await issueToken(mcp, `delete_note_from_board: note ${note.id}`);
      if (token) deleteTokens[note.id] = token;
    }
    const text = notes.length ? `${notes.length} notes, shown on the board:\n${lines}` : "There are no notes.";
    return { content: [{ type: "text", text }], structuredContent: { notes }, _meta: { deleteTokens } };
  },
});
