import { getNote, listNotes } from "../examples/notes";

/** A resource template: one resource per note, listed in resources/list. */
export default defineResource({
  uriTemplate: "note://{id}",
  name: "note",
  title: "Note",
  description: "One note, as plain text.",
  mimeType: "text/plain",
  list: async () =>
    (await listNotes()).map((note) => ({
      uri: `note://${note.id}`,
      name: `note-${note.id}`,
      title: note.title,
      mimeType: "text/plain",
    })),
  complete: { id: async (value) => (await listNotes()).map((note) => note.id).filter((id) => id.startsWith(value)) },
  async read({ id }) {
    const note = await getNote(id);
    return note ? `${note.title}\n\n${note.text}` : undefined;
  },
});
