/**
 * The notes board: shows the notes of `notes_board`'s result; a delete asks the person to confirm on the card, then calls
 * `delete_note_from_board` through the host with the note's single-use token (the result's `_meta.deleteTokens`, which
 * hosts keep from the model). Everything shown comes from tool results, as text.
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

function button(label: string, name: string, onClick: () => void): HTMLButtonElement {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  element.setAttribute("aria-label", name);
  element.addEventListener("click", onClick);
  return element;
}

/** Each note's token for `delete_note_from_board`, by id: none where the server could not issue one. */
function deleteTokensOf(result: ToolResult): Map<string, string> {
  const tokens = result._meta?.deleteTokens;
  if (typeof tokens !== "object" || tokens === null) return new Map();
  return new Map(Object.entries(tokens).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

/** A note's card: its delete button (with a token) turns into the question, answered on the card itself. */
function card(note: Note, token: string | undefined): HTMLLIElement {
  const item = document.createElement("li");
  const title = document.createElement("h2");
  title.textContent = `#${note.id} ${note.title}`;
  const text = document.createElement("p");
  text.textContent = note.text;
  item.append(title, text);
  if (!token) return item;
  const question = document.createElement("div");
  question.className = "confirm";
  const asked = document.createElement("span");
  asked.textContent = "Delete for good?";
  question.append(asked);
  const remove = button("Delete", `Delete note ${note.id}`, () => remove.replaceWith(question));
  const keep = button("Keep", `Keep note ${note.id}`, () => question.replaceWith(remove));
  question.append(
    keep,
    button("Delete", `Confirm deleting note ${note.id}`, () => void deleteNote(note, token)),
  );
  item.append(remove);
  return item;
}

function show(result: ToolResult): void {
  const notes = notesOf(result);
  if (!notes) {
    status.textContent = textOf(result);
    return;
  }
  const tokens = deleteTokensOf(result);
  list.replaceChildren(...notes.map((note) => card(note, tokens.get(note.id))));
  empty.hidden = notes.length > 0;
}

const setBusy = (busy: boolean) => {
  for (const button of list.querySelectorAll("button")) button.disabled = busy;
};

/** One deletion at a time: the buttons stay disabled until `delete_note_from_board` answered. */
async function deleteNote(note: Note, token: string): Promise<void> {
  setBusy(true);
  status.textContent = `Deleting note ${note.id}…`;
  try {
    const args = { note_id: note.id, token };
    const result = await app.callServerTool({ name: "delete_note_from_board", arguments: args });
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
