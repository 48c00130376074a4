/** Bounded tasks (bounded-tasks.ts) on the files store: two processes on one folder, each record read from its file. */
import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../helpers/server.mjs";
import { MAX_ACTIVE, describeBoundedTasks, type StoredTasks } from "./bounded-tasks";

describeBoundedTasks("files store (NITRO_MCP_STORAGE_DIR), two processes on one folder", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-tasks-"));
  const env = { ...MAX_ACTIVE, NITRO_MCP_STORAGE_DIR: dir };
  const [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
  const atomic = join(dir, ".atomic");
  const stored: StoredTasks = {
    async records() {
      // The folder exists once something was stored: a test that runs first finds none.
      const files = existsSync(atomic) ? readdirSync(atomic).filter((file) => /^task_[A-Za-z0-9_-]+$/.test(file)) : [];
      return new Map(
        files.map((file) => [
          file.slice("task_".length),
          JSON.parse(readFileSync(join(atomic, file), "utf8")).value as string,
        ]),
      );
    },
  };
  return { a, b, stored, stop: async () => void (await Promise.all([a.stop(), b.stop()])) };
});
