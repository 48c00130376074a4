import { redeemToken } from "#mcp-apps";
import { z } from "zod";
import { NoteId, deleteNote, getNote } from "../examples/notes";

/**
 * The notes board's own delete (server/ui/notes-board/): the person confirmed on the board, and the board presents the
 * single-use token `notes_board` gave it for that note. Hosts keep the tool from the model (`visibility: ["app"]`); that
 * is advice, so the token is what makes a call act: for this caller and note, once, within its lifetime.
 */
export default defineTool({
  name: "delete_note_from_board",
  title: "Delete a note from the board",
  description: "Deletes a note the person confirmed on the notes board, with the token the board received for it.",
  input: {
    note_id: NoteId,
    token: z.string().max(4096).describe("The note's token from the notes_board result's _meta.deleteTokens"),
  },
  annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  ui: { visibility: ["app"] },
  scopes: ["notes:write"],
  async run({ note_id, token }, mcp) {
    if (!(await redeemToken(mcp, `delete_note_from_board: note ${note_id}`, token)))
      return toolError(`This board's delete for note ${note_id} has expired or was used: open the board again.`);
    const note = await getNote(note_id);
    if (!note) return toolError(`There is no note with id ${note_id}.`);
    await deleteNote(note_id);
    await resourceChanged(`note://${note_id}`);
    await resourceChanged("notes://export");
    return `Deleted note ${note_id} ("${note.title}").`;
  },
});
