/**
 * The notes board (the apps feature's example) in the MCP Inspector's web UI, on the product build: its Apps tab renders
 * the UI in its sandbox, with the demo notes from `notes_board`'s result, and deletes a note from the board (confirmed on
 * the board, then `delete_note_from_board` through the Inspector), in its 2026-07-28 era and in its 2025 era.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/chromium.mjs";
import { needs } from "../helpers/programs.mjs";
import { hasFeature } from "../helpers/project.mjs";
import { OUTPUT, startServer, type RunningServer } from "../helpers/server.mjs";
import { connect, installInspector, startInspector } from "./inspector";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Opens the UI of a tool without arguments on the Apps tab (which lists tools by title, and opens such a tool at once):
 * the UI's frame once the Inspector says the app is ready.
 */
async function openApp(page: Page, title: string): Promise<Frame> {
  await connect(page);
  await page.getByText("Apps", { exact: true }).first().click();
  await page.getByText(title, { exact: true }).first().click();
  await expect.poll(() => page.locator("[data-app-status]").first().getAttribute("data-app-status")).toBe("ready");
  // The Inspector's page, its sandbox proxy, and the UI inside it (a srcdoc frame).
  const view = page.frames().at(-1)!;
  await view.locator("li").first().waitFor();
  return view;
}

// The 2025 era is the legacy feature's (server/features/legacy): without it, only the 2026 era connects.
describe.each(hasFeature("legacy") ? (["modern", "legacy"] as const) : (["modern"] as const))(
  "the notes board in the MCP Inspector, %s era",
  needs("chromium"),
  (era) => {
    let server: RunningServer;
    let inspector: RunningServer & { home: string };
    let browser: Browser;
    let page: Page;

    beforeAll(async () => {
      installInspector();
      server = await startServer({ output: OUTPUT.product });
      inspector = await startInspector(server.url, era);
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
      page.setDefaultTimeout(10_000);
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await inspector?.stop();
      if (inspector) rmSync(inspector.home, { recursive: true, force: true });
      await server?.stop();
    });
    // What the page showed when a step failed, for the person reading the failure.
    afterEach(async (context) => {
      if (context.task.result?.state !== "fail") return;
      mkdirSync(join(ROOT, "tests/.runs"), { recursive: true });
      await page.screenshot({
        path: join(ROOT, "tests/.runs", `inspector-apps-${era}-${context.task.name.split(" ")[0]}.png`),
      });
    });

    it("renders the board with the demo notes", async () => {
      await page.goto(inspector.base);
      const view = await openApp(page, "Notes board");
      expect(await view.locator("li h2").allInnerTexts()).toEqual([
        "#7 Groceries",
        "#12 Conference talk",
        "#15 Plant care",
      ]);
    });

    // The board asks on the card, then calls its app-only tool through the Inspector with the note's token: no host
    // dialog, so the same in both eras (the Inspector 2.12 answers no 2026-07-28 `input_required` of a UI's call).
    it("deletes a note from the board once the person confirms on the board", async () => {
      await page.goto(inspector.base);
      const view = await openApp(page, "Notes board");
      await view.getByRole("button", { name: "Delete note 15" }).click();
      await view.getByRole("button", { name: "Confirm deleting note 15" }).click();

      await expect.poll(() => view.locator("#status").innerText()).toBe('Deleted note 15 ("Plant care").');
      await expect.poll(() => view.locator("li h2").allInnerTexts()).toEqual(["#7 Groceries", "#12 Conference talk"]);
      await expect(page.getByRole("dialog").count()).resolves.toBe(0);
    });
  },
);
