import { z } from "zod";
import { listNotes } from "../notes";

const Format = defineForm({ format: z.enum(["markdown", "json"]).describe("Export format") });

/** resources/read can ask first as well: here, which format the export should use. */
export default defineResource({
  uri: "notes://export",
  name: "notes-export",
  title: "Export all notes",
  description: "All notes in one document; you choose the format when reading it.",
  async read(_variables, mcp) {
    const ask = { format: elicitForm("Export the notes as markdown or JSON?", Format) };
    const { format } = readInputResponses(mcp, ask);
    if (!format) return inputRequired(mcp, ask);
    const notes = await listNotes();
    const asJson = format.action === "accept" && format.content.format === "json";
    if (asJson) return [{ uri: "notes://export", mimeType: "application/json", text: JSON.stringify(notes, null, 2) }];
    const markdown = notes.map((note) => `## ${note.title} (#${note.id})\n\n${note.text}`).join("\n\n");
    return [{ uri: "notes://export", mimeType: "text/markdown", text: markdown }];
  },
});
