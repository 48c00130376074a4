import { listNotes } from "../examples/notes";

export default defineTool({
  name: "list_notes",
  title: "List notes",
  description: "Lists every note with its id and title. Read one in full as the resource note://{id}.",
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run() {
    const notes = await listNotes();
    if (notes.length === 0) return "There are no notes.";
    return notes.map((note) => `#${note.id} ${note.title}: ${note.text}`).join("\n");
  },
});
