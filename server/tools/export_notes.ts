import { z } from "zod";
import { listNotes } from "../examples/notes";

const Texts = defineForm({
  texts: z.boolean().describe("Include each remaining note's full text (otherwise titles only)"),
});

/** What a round has done so far: carried to the next round (sealed in requestState, or kept in the task). */
const Done = z.object({ lines: z.array(z.string()) });

/**
 * A long job, as a task: the client gets a task at once and polls it; the export reports progress
 * (the task's status message), asks one question half way (the task waits for the answer), and
 * stops when the task is cancelled. A client without the tasks extension gets the same job as a
 * plain call: progress on its stream, the question by multi round-trip.
 */
export default defineTool({
  name: "export_notes",
  title: "Export all notes",
  description:
    "Exports every note into one markdown document, one note at a time (a long job). Asks half way whether to include the texts.",
  input: { delay_ms: z.int().min(0).max(10_000).default(1000).describe("Time spent on each note") },
  annotations: { readOnlyHint: true, openWorldHint: false },
  task: "optional",
  async run({ delay_ms }, mcp) {
    const notes = await listNotes();
    const half = Math.ceil(notes.length / 2);
    const lines = readRequestState(mcp, Done)?.lines ?? [];
    const exportNote = async (index: number, withText: boolean) => {
      sendProgress(mcp, index, notes.length, `Exporting note ${index + 1} of ${notes.length}`);
      await sleep(delay_ms, mcp.signal);
      const note = notes[index]!;
      lines.push(withText ? `## ${note.title} (#${note.id})\n\n${note.text}` : `## ${note.title} (#${note.id})`);
    };

    for (let index = lines.length; index < half && !mcp.signal.aborted; index++) await exportNote(index, false);
    if (mcp.signal.aborted) return "Export cancelled.";

    const ask = {
      texts: elicitForm(
        `${half} of ${notes.length} notes are exported (titles). Include the full texts of the rest?`,
        Texts,
      ),
    };
    const { texts } = readInputResponses(mcp, ask);
    if (!texts) return inputRequired(mcp, ask, { lines });
    const withText = texts.action === "accept" && texts.content.texts;

    for (let index = half; index < notes.length && !mcp.signal.aborted; index++) await exportNote(index, withText);
    if (mcp.signal.aborted) return "Export cancelled.";
    sendProgress(mcp, notes.length, notes.length, "Exported");
    return `# Notes\n\n${lines.join("\n\n")}`;
  },
});
