import { clientRendersUi } from "#mcp-apps";
import { listNotes } from "../examples/notes";

/**
 * The notes on a board (server/ui/notes-board/), where the person can delete one: the board calls `delete_note`
 * through the host, so the deletion asks for confirmation like any other. Text-only clients get the list as text.
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
    const text =
      notes.length === 0
        ? "There are no notes."
        : clientRendersUi(mcp)
          ? `${notes.length} notes, shown on the board:\n${lines}`
          : lines;
    return { content: [{ type: "text", text }], structuredContent: { notes } };
  },
});
