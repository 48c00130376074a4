import { z } from "zod";
import { listNotes, type Note } from "../examples/notes";

const Format = defineForm({ format: z.enum(["markdown", "json"]).describe("Export format") });

const asMarkdown = (notes: Note[]) => [
  {
    uri: "notes://export",
    mimeType: "text/markdown",
    text: notes.map((note) => `## ${note.title} (#${note.id})\n\n${note.text}`).join("\n\n"),
  },
];

/**
 * resources/read can ask first as well: here, which format the export should use.
 * A client that cannot be asked (it declared no form elicitation) gets markdown
 * instead of an error: check with `canRequestInput` and degrade.
 */
export default defineResource({
  uri: "notes://export",
  name: "notes-export",
  title: "Export all notes",
  description: "All notes in one document; you choose the format when reading it (markdown if you cannot be asked).",
  async read(_variables, mcp) {
    const ask = { format: elicitForm("Export the notes as markdown or JSON?", Format) };
    if (!canRequestInput(mcp, ask.format)) return asMarkdown(await listNotes());

    const { format } = readInputResponses(mcp, ask);
    if (!format) return inputRequired(mcp, ask);
    const notes = await listNotes();
    const asJson = format.action === "accept" && format.content.format === "json";
    return asJson
      ? [{ uri: "notes://export", mimeType: "application/json", text: JSON.stringify(notes, null, 2) }]
      : asMarkdown(notes);
  },
});
