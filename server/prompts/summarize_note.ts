import { z } from "zod";
import { NoteId, getNote, listNotes } from "../examples/notes";

/** A prompt with an argument and completion for it. */
export default definePrompt({
  name: "summarize_note",
  title: "Summarize a note",
  description: "Asks the model to summarize one note, optionally in a given style.",
  arguments: {
    note_id: NoteId,
    style: z.string().optional().describe("How to write it, e.g. bullet points"),
  },
  complete: {
    note_id: async (value) => (await listNotes()).map((note) => note.id).filter((id) => id.startsWith(value)),
    style: (value) => ["bullet points", "one sentence", "haiku"].filter((style) => style.startsWith(value)),
  },
  async run({ note_id, style }) {
    const note = await getNote(note_id);
    if (!note) throw invalidArguments(`There is no note with id ${note_id}`);
    return `Summarize this note${style ? ` as ${style}` : ""}.\n\n# ${note.title}\n${note.text}`;
  },
});
