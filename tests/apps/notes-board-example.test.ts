/**
 * The notes board (server/ui/notes-board/, linked to `notes_board`) in a real host: headless Chromium runs the test host
 * (host/: the official client and AppBridge, the UI in a sandboxed iframe under the strictest host CSP), which renders the
 * built document from `resources/read`, sends it the tool's result, and forwards the UI's `tools/call` to the server.
 * Deleting goes UI → host → server `delete_note`, which asks the person (the host's elicitation handler says yes) and acts
 * on the retry's sealed single-use state: on the Node build, in workerd, and on two Node instances sharing Redis (each
 * request to either), in both eras of the host's client.
 */
import type { Browser, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, openPage, type OpenedPage } from "../helpers/chromium.mjs";
import { needs } from "../helpers/programs.mjs";
import { hasFeature } from "../helpers/project.mjs";
import { startServer, startWorker } from "../helpers/server.mjs";
import { startInstancesOnRedis } from "../targets/redis.mjs";
import { serveHostPage, type HostPage } from "./host-page";

interface HostState {
  asked: { message: string }[];
  calls: string[];
  ready: boolean;
  error: string;
}
const hostState = (page: Page) => page.evaluate(() => (window as unknown as { host: HostState }).host);

// The 2025 era asks over the message bus (server/features/message-bus): without it, only the 2026 era can be.
const ERAS =
  hasFeature("legacy") && hasFeature("message-bus") ? (["modern", "legacy"] as const) : (["modern"] as const);

const TARGETS = [
  { name: "the Node build", needs: needs("chromium"), start: async () => startServer() },
  { name: "the Workers build in workerd", needs: needs("chromium"), start: async () => startWorker() },
  {
    name: "two Node instances sharing Redis",
    needs: needs("chromium", "redis-server"),
    start: async () => {
      const instances = await startInstancesOnRedis();
      return { urls: [instances.a.url, instances.b.url], stop: instances.stop };
    },
  },
];

describe.each(TARGETS)("the notes board in a real host, on $name", ({ needs: needed, start }) => {
  describe.each(ERAS)("its client in the %s era", needed, (era) => {
    let stopServers: () => Promise<void>;
    let host: HostPage;
    let browser: Browser;
    beforeAll(async () => {
      const started = await start();
      const { urls, stop } = "urls" in started ? started : { urls: [started.url], stop: started.stop };
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

    it(`deletes note ${note.id} once the person confirms, once for a double click`, async () => {
      const { page, board, context } = await openBoard();
      await expect(board.locator("li h2").allInnerTexts()).resolves.toContain(`#${note.id} ${note.title}`);

      await board.getByRole("button", { name: `Delete note ${note.id}` }).dblclick();
      await expect.poll(() => board.locator("#status").innerText()).toBe(`Deleted note ${note.id} ("${note.title}").`);
      await expect.poll(() => board.locator("li h2").allInnerTexts()).not.toContain(`#${note.id} ${note.title}`);

      const state = await hostState(page);
      // The board called delete_note through the host once (the second click found the buttons disabled), then refreshed.
      expect(state.calls).toEqual(["delete_note", "notes_board"]);
      // The server asked once; the retry carried the answer and the sealed state.
      expect(state.asked).toEqual([
        expect.objectContaining({ message: `Delete note ${note.id} ("${note.title}")? This cannot be undone.` }),
      ]);
      await context.close();
    });
  });
});
