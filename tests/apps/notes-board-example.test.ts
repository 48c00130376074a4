/**
 * The notes board (server/ui/notes-board/, linked to `notes_board`) in a real host: headless Chromium runs the test host
 * (host/: the official client and AppBridge, the UI in a sandboxed iframe under the strictest host CSP), which renders the
 * built document from `resources/read`, sends it the tool's result, and forwards the UI's `tools/call` to the server.
 * Deleting goes UI → host → server: the person confirms on the board, which calls `delete_note_from_board` with the note's
 * single-use token from the board's result, and the token acts once, on each target below (two instances: each request to
 * either), in both eras of the host's client.
 */
import type { Browser, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, openPage, type OpenedPage } from "../helpers/chromium.mjs";
import { needs } from "../helpers/programs.mjs";
import { hasFeature } from "../helpers/project.mjs";
import { startServer, type RunningServer } from "../helpers/server.mjs";
import { startWorker } from "../helpers/worker.mjs";
import { startInstancesOnRedis } from "../targets/redis.mjs";
import { serveHostPage, type HostPage } from "./host-page";

interface HostState {
  asked: { message: string }[];
  calls: { name: string; arguments?: Record<string, unknown> }[];
  ready: boolean;
  error: string;
}
const hostState = (page: Page) => page.evaluate(() => (window as unknown as { host: HostState }).host);

// The 2025 era is the legacy feature's (server/features/legacy): without it, only the 2026 era connects.
const ERAS = hasFeature("legacy") ? (["modern", "legacy"] as const) : (["modern"] as const);

/** Where the board runs: the host sends each request to the next of `urls`. */
interface Target {
  name: string;
  needs: ReturnType<typeof needs>;
  start(): Promise<{ urls: string[]; stop: () => Promise<void> }>;
}
const one = async (started: Promise<RunningServer>) => {
  const server = await started;
  return { urls: [server.url], stop: () => server.stop() };
};

const TARGETS: Target[] = [{ name: "the Node build", needs: needs("chromium"), start: () => one(startServer()) }];
// with:cloudflare
TARGETS.push({ name: "the Workers build in workerd", needs: needs("chromium"), start: () => one(startWorker()) });
// end with:cloudflare
// with:redis
TARGETS.push({
  name: "two Node instances sharing Redis",
  needs: needs("chromium", "redis-server"),
  start: async () => {
    const instances = await startInstancesOnRedis();
    return { urls: [instances.a.url, instances.b.url], stop: instances.stop };
  },
});
// end with:redis

describe.each(TARGETS)("the notes board in a real host, on $name", ({ needs: needed, start }) => {
  describe.each(ERAS)("its client in the %s era", needed, (era) => {
    let stopServers: () => Promise<void>;
    let host: HostPage;
    let browser: Browser;
    beforeAll(async () => {
      const { urls, stop } = await start();
      stopServers = stop;
      host = await serveHostPage(urls);
      browser = await launchChromium();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await host?.close();
      await stopServers?.();
    });

    /** The host page with the board rendered from the tool's result. */
    async function openBoard(): Promise<OpenedPage & { board: FrameLocator }> {
      const opened = await openPage(browser, host.url(era));
      await expect
        .poll(async () => (await hostState(opened.page)).error || (await hostState(opened.page)).ready)
        .toBe(true);
      const board = opened.page.frameLocator("iframe");
      await board.locator("li").first().waitFor();
      return { ...opened, board };
    }

    it("shows the notes from the tool's result, under the host's CSP, with no error", async () => {
      const { page, board, context, problems } = await openBoard();
      const titles = await board.locator("li h2").allInnerTexts();
      expect(titles).toEqual(expect.arrayContaining(["#15 Plant care"]));
      const view = page.frames().at(-1)!;
      expect(await view.evaluate(() => document.body.dataset.connected)).toBe("true");
      expect(await view.evaluate(() => (globalThis as { cspViolations?: string[] }).cspViolations ?? [])).toEqual([]);
      expect(await problems()).toEqual([]);
      await context.close();
    });

    // Each era deletes its own note: the servers (and their store) are shared by the tests of a target.
    const note = era === "modern" ? { id: "12", title: "Conference talk" } : { id: "7", title: "Groceries" };

    it("keeps the note when the person answers Keep", async () => {
      const { page, board, context } = await openBoard();
      await board.getByRole("button", { name: "Delete note 15" }).click();
      await board.getByRole("button", { name: "Keep note 15" }).click();
      await expect(board.getByRole("button", { name: "Delete note 15" }).count()).resolves.toBe(1);
      expect((await hostState(page)).calls).toEqual([]);
      await context.close();
    });

    it(`deletes note ${note.id} once the person confirms on the board, once for a double click and a replay`, async () => {
      const { page, board, context } = await openBoard();
      await expect(board.locator("li h2").allInnerTexts()).resolves.toContain(`#${note.id} ${note.title}`);

      await board.getByRole("button", { name: `Delete note ${note.id}` }).click();
      await board.getByRole("button", { name: `Confirm deleting note ${note.id}` }).dblclick();
      await expect.poll(() => board.locator("#status").innerText()).toBe(`Deleted note ${note.id} ("${note.title}").`);
      await expect.poll(() => board.locator("li h2").allInnerTexts()).not.toContain(`#${note.id} ${note.title}`);

      const { calls, asked } = await hostState(page);
      // One delete through the host (the second click found the buttons disabled), then the board's refresh; nobody
      // was asked through the client: the board asked.
      expect(calls.map((call) => call.name)).toEqual(["delete_note_from_board", "notes_board"]);
      expect(asked).toEqual([]);
      // The same call again (to either instance, where there are two): the token was spent.
      const replay = await page.evaluate(
        (args) =>
          (window as unknown as { host: { call: (name: string, args: unknown) => Promise<unknown> } }).host.call(
            "delete_note_from_board",
            args,
          ),
        calls[0]?.arguments,
      );
      expect(replay).toMatchObject({
        isError: true,
        content: [{ text: `This board's delete for note ${note.id} has expired or was used: open the board again.` }],
      });
      await context.close();
    });
  });
});
