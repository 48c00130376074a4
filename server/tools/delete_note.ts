import { z } from "zod";
import { NoteId, deleteNote, getNote } from "../examples/notes";

const Confirm = defineForm({
  confirm: z.boolean().describe("Yes, delete this note for good"),
});

/**
 * Confirm before deleting: the first call asks the person, the retry acts on the answer.
 * The state is single use, so one confirmation deletes at most once.
 */
export default defineTool({
  name: "delete_note",
  title: "Delete a note",
  description: "Deletes one note by id. The person is asked to confirm first; nothing is deleted without a yes.",
  input: { note_id: NoteId },
  annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  singleUseState: true,
  // With sign-in on, deleting needs the notes:write scope; a token without it gets 403 and the client asks for it.
  scopes: ["notes:write"],
  async run({ note_id }, mcp) {
    const note = await getNote(note_id);
    if (!note) return toolError(`There is no note with id ${note_id}. Call list_notes to see the ids.`);

    const ask = {
      confirm: elicitForm(`Delete note ${note_id} ("${note.title}")? This cannot be undone.`, Confirm),
    };
    const { confirm } = readInputResponses(mcp, ask);
    if (!confirm) return inputRequired(mcp, ask);

    if (confirm.action === "accept" && confirm.content.confirm) {
      await deleteNote(note_id);
      await resourceChanged(`note://${note_id}`);
      await resourceChanged("notes://export");
      return `Deleted note ${note_id} ("${note.title}").`;
    }
    const why = confirm.action === "accept" ? "the box was left unchecked" : `the person chose ${confirm.action}`;
    return `Kept note ${note_id} ("${note.title}"): ${why}.`;
  },
});
