/**
 * The example domain: short notes kept in unstorage (memory by default; Redis, Upstash or
 * Cloudflare KV in production — see README, "Storage"). Seeded once with notes 7, 12 and 15.
 */
import { useStorage } from "nitropack/runtime";

export interface Note {
  id: string;
  title: string;
  text: string;
}

const SAMPLE_NOTES: Note[] = [
  { id: "7", title: "Groceries", text: "Oat milk, lemons, a loaf of rye, coffee beans." },
  { id: "12", title: "Conference talk", text: "Outline the MRTR demo: ask, retry, complete. Keep it under 20 minutes." },
  { id: "15", title: "Plant care", text: "Water the fern on Sundays; the cactus once a month." },
];

const storage = () => useStorage("mcp:notes");
let seeded: Promise<void> | undefined;

/** Seeds the sample notes the first time any instance touches the store (not again after deletions). */
function ensureSeeded(): Promise<void> {
  seeded ??= (async () => {
    if (await storage().hasItem("_seeded")) return;
    await Promise.all(SAMPLE_NOTES.map((note) => storage().setItem(`note:${note.id}`, note)));
    await storage().setItem("_seeded", true);
  })();
  return seeded;
}

export async function getNote(id: string): Promise<Note | null> {
  await ensureSeeded();
  return storage().getItem<Note>(`note:${id}`);
}

export async function listNotes(): Promise<Note[]> {
  await ensureSeeded();
  const keys = await storage().getKeys("note");
  const notes = await Promise.all(keys.map((key) => storage().getItem<Note>(key)));
  return notes.filter((note): note is Note => note !== null).sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id));
}

/** Deletes a note; true if it existed. Idempotent. */
export async function deleteNote(id: string): Promise<boolean> {
  await ensureSeeded();
  const existed = await storage().hasItem(`note:${id}`);
  await storage().removeItem(`note:${id}`);
  return existed;
}
