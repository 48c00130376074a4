/**
 * The files store (development: `NITRO_MCP_STORAGE_DIR`): unstorage's files driver, and atomic operations that each hold a
 * lock file created exclusively (`wx`: one of any number of racing processes wins) while they read and write; a value is
 * replaced by renaming a complete file over it. Processes sharing the folder share its data and claims, not a message bus.
 */
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fsLite from "unstorage/drivers/fs-lite";
import { type AtomicStore, defineStore, nowSeconds } from "../../mcp/kit";

/** A lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 10_000;
const KEY = /^[A-Za-z0-9_.:-]+$/;

export function filesAtomicStore(base: string): AtomicStore {
  const dir = join(base, ".atomic");
  const pathOf = (key: string) => {
    // Keys are made by the server (claim:<id>, task:<id>); anything else is a bug, not a path.
    if (!KEY.test(key) || key.includes("..")) throw new Error(`invalid atomic key ${JSON.stringify(key)}`);
    return join(dir, key.replaceAll(":", "_"));
  };

  async function withLock<T>(key: string, action: (file: string) => Promise<T>): Promise<T> {
    const file = pathOf(key);
    const lock = `${file}.lock`;
    await mkdir(dir, { recursive: true });
    for (let attempt = 0; ; attempt++) {
      try {
        await (await open(lock, "wx")).close();
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const info = await stat(lock).catch(() => undefined);
        if (info && Date.now() - info.mtimeMs > STALE_LOCK_MS) await rm(lock, { force: true });
        else await new Promise((resolve) => setTimeout(resolve, Math.min(50, 1 + attempt)));
      }
    }
    try {
      return await action(file);
    } finally {
      await rm(lock, { force: true });
    }
  }

  async function read(file: string): Promise<string | null> {
    const text = await readFile(file, "utf8").catch((error) =>
      (error as NodeJS.ErrnoException).code === "ENOENT" ? null : Promise.reject(error),
    );
    if (text === null) return null;
    const { value, expiresAt } = JSON.parse(text) as { value: string; expiresAt: number };
    return expiresAt > nowSeconds() ? value : null;
  }

  /** Writes `next` while `key` holds `expected` (null: absent or expired); true when it did. */
  const replace = (key: string, expected: string | null, next: string, ttlSeconds: number) =>
    withLock(key, async (file) => {
      if ((await read(file)) !== expected) return false;
      // A complete file renamed over the old one: a reader never sees half a value.
      const temporary = `${file}.${crypto.randomUUID()}.tmp`;
      await writeFile(temporary, JSON.stringify({ value: next, expiresAt: nowSeconds() + ttlSeconds }));
      await rename(temporary, file);
      return true;
    });

  return {
    name: `files in ${base}`,
    get: (key) => read(pathOf(key)),
    setIfAbsent: (key, value, ttlSeconds) => replace(key, null, value, ttlSeconds),
    compareAndSet: replace,
    delete: (key) => withLock(key, (file) => rm(file, { force: true })),
  };
}

export default defineStore({
  order: 30,
  select(env) {
    const dir = env.NITRO_MCP_STORAGE_DIR;
    if (typeof dir !== "string" || !dir) return undefined;
    const atomic = filesAtomicStore(dir);
    return { name: `files in ${dir}`, driver: fsLite({ base: dir }), atomic, client: atomic };
  },
});
