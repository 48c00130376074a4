/**
 * The notes board (the apps feature's example) in the MCP Inspector's web UI, on the product build: its Apps tab renders
 * the UI in its sandbox, with the demo notes from `notes_board`'s result, in its 2026-07-28 era and in its 2025 era. In the
 * 2025 era a delete from the board goes through the Inspector to `delete_note`, whose confirmation the Inspector shows; in
 * the 2026-07-28 era the Inspector cannot confirm a UI's call (see below), and the note stays.
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

// The 2025 era is asked over the message bus (server/features/message-bus): without it, only the 2026 era can be.
describe.each(hasFeature("message-bus") ? (["modern", "legacy"] as const) : (["modern"] as const))(
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

    // The Inspector 2.12 forwards a UI's tools/call with its client's plain request, which refuses a 2026-07-28
    // `input_required` result (its Tools tab answers those itself): nothing is deleted without a confirmation.
    it.runIf(era === "modern")("keeps the note when the board's delete cannot be confirmed there", async () => {
      await page.goto(inspector.base);
      const view = await openApp(page, "Notes board");
      await view.getByRole("button", { name: "Delete note 15" }).click();
      await expect
        .poll(() => view.locator("#status").innerText())
        .toMatch(/^Could not delete note 15: .*input_required/);
      await expect(page.getByRole("dialog").count()).resolves.toBe(0);
      expect(await view.locator("li h2").allInnerTexts()).toContain("#15 Plant care");
    });

    // A 2025-era client is asked on the call's own stream: the Inspector shows its dialog, whoever made the call.
    it.runIf(era === "legacy")("deletes a note from the board once the person confirms in the Inspector", async () => {
      await page.goto(inspector.base);
      const view = await openApp(page, "Notes board");
      await view.getByRole("button", { name: "Delete note 15" }).click();
      const dialog = page.getByRole("dialog");
      await expect.poll(() => dialog.innerText()).toContain('Delete note 15 ("Plant care")? This cannot be undone.');
      await dialog.getByRole("checkbox").check();
      await dialog.getByRole("button", { name: "Submit" }).click();

      await expect.poll(() => view.locator("#status").innerText()).toBe('Deleted note 15 ("Plant care").');
      await expect.poll(() => view.locator("li h2").allInnerTexts()).toEqual(["#7 Groceries", "#12 Conference talk"]);
    });
  },
);
