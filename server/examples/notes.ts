/**
 * The example domain: short notes kept in unstorage (memory by default; a store that
 * instances share in production — see server/storage/README.md). Seeded once with notes 7, 12 and 15.
 */
import { useStorage } from "nitropack/runtime";
import { z } from "zod";
import { KEY_SEGMENT } from "../mcp/kit";

export interface Note {
  id: string;
  title: string;
  text: string;
}

const SAMPLE_NOTES: Note[] = [
  { id: "7", title: "Groceries", text: "Oat milk, lemons, a loaf of rye, coffee beans." },
  {
    id: "12",
    title: "Conference talk",
    text: "Outline the MRTR demo: ask, retry, complete. Keep it under 20 minutes.",
  },
  { id: "15", title: "Plant care", text: "Water the fern on Sundays; the cactus once a month." },
];

/** A note id as tools take it: the allow-list of storage key segments, so one id can never alias another note. */
export const NoteId = z
  .string()
  .regex(KEY_SEGMENT, "letters, digits, - and _ only")
  .describe('Id of the note, e.g. "7"');

const storage = () => useStorage("mcp:notes");
let seeded: Promise<void> | undefined;

/** Seeds the sample notes the first time any instance touches the store (not again after deletions). */
function ensureSeeded(): Promise<void> {
  seeded ??= (async () => {
    if (await storage().hasItem("_seeded")) return;
    await Promise.all(SAMPLE_NOTES.map((note) => storage().setItem(`note:${note.id}`, note)));
    await storage().setItem("_seeded", true);
  })().catch((error) => {
    seeded = undefined; // a store that was down is tried again on the next call
    throw error;
  });
  return seeded;
}

export async function getNote(id: string): Promise<Note | null> {
  if (!KEY_SEGMENT.test(id)) return null;
  await ensureSeeded();
  return storage().getItem<Note>(`note:${id}`);
}

export async function listNotes(): Promise<Note[]> {
  await ensureSeeded();
  const keys = await storage().getKeys("note");
  const notes = await Promise.all(keys.map((key) => storage().getItem<Note>(key)));
  return notes
    .filter((note): note is Note => note !== null)
    .sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id));
}

/** Deletes a note; true if it existed. Idempotent. */
export async function deleteNote(id: string): Promise<boolean> {
  if (!KEY_SEGMENT.test(id)) return false;
  await ensureSeeded();
  const existed = await storage().hasItem(`note:${id}`);
  await storage().removeItem(`note:${id}`);
  return existed;
}
