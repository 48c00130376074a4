/**
 * The notes board: shows the notes of `notes_board`'s result and deletes one through `delete_note`, called via the host
 * (the host's client asks the person to confirm, as for any call). Everything shown comes from tool results, as text.
 */
import "../no-eval";
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables } from "@modelcontextprotocol/ext-apps";
import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps";

interface Note {
  id: string;
  title: string;
  text: string;
}
type ToolResult = Awaited<ReturnType<App["callServerTool"]>>;

const list = document.getElementById("notes") as HTMLUListElement;
const empty = document.getElementById("empty") as HTMLParagraphElement;
const status = document.getElementById("status") as HTMLParagraphElement;
const app = new App({ name: "notes-board", version: "1.0.0" });

/** The notes of a result, or null when it carries none (a text-only answer, an error). */
function notesOf(result: ToolResult): Note[] | null {
  const notes = (result.structuredContent as { notes?: unknown } | undefined)?.notes;
  if (!Array.isArray(notes)) return null;
  return notes.filter(
    (note): note is Note =>
      typeof note?.id === "string" && typeof note?.title === "string" && typeof note?.text === "string",
  );
}

const textOf = (result: ToolResult): string =>
  result.content
    .map((block) => (block.type === "text" ? block.text : ""))
    .join(" ")
    .trim();

function card(note: Note): HTMLLIElement {
  const item = document.createElement("li");
  const title = document.createElement("h2");
  title.textContent = `#${note.id} ${note.title}`;
  const text = document.createElement("p");
  text.textContent = note.text;
  const remove = document.createElement("button");
  remove.type = "button";
  remove.textContent = "Delete";
  remove.setAttribute("aria-label", `Delete note ${note.id}`);
  remove.addEventListener("click", () => void deleteNote(note));
  item.append(title, text, remove);
  return item;
}

function show(result: ToolResult): void {
  const notes = notesOf(result);
  if (!notes) {
    status.textContent = textOf(result);
    return;
  }
  list.replaceChildren(...notes.map(card));
  empty.hidden = notes.length > 0;
}

const setBusy = (busy: boolean) => {
  for (const button of list.querySelectorAll("button")) button.disabled = busy;
};

/** One deletion at a time: the buttons stay disabled until `delete_note` answered (after the person's confirmation). */
async function deleteNote(note: Note): Promise<void> {
  setBusy(true);
  status.textContent = `Deleting note ${note.id}: confirm in your client…`;
  try {
    const result = await app.callServerTool({ name: "delete_note", arguments: { note_id: note.id } });
    status.textContent = textOf(result);
    show(await app.callServerTool({ name: "notes_board", arguments: {} }));
  } catch (error) {
    status.textContent = `Could not delete note ${note.id}: ${(error as Error).message}`;
  } finally {
    setBusy(false);
  }
}

function applyContext(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context?.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
}

// Handlers first: the host sends the tool's result right after the handshake.
app.ontoolresult = show;
app.onhostcontextchanged = applyContext;
await app.connect();
applyContext(app.getHostContext());
document.body.dataset.connected = "true";
