/**
 * The MCP Inspector as developers use it: its web UI (2.x), opened on the product build with the command the front page
 * gives (`--transport http --server-url … --protocol-era …`), driven in headless Chromium through the examples that ask:
 * `delete_note` (confirm, decline) and `wizard` (three rounds). The Inspector needs Node >= 22.19: it runs on a Node 22
 * binary from the npm registry, and its packages are this folder's own (installed on first use).
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/chromium.mjs";
import { needs } from "../helpers/programs.mjs";
import { hasFeature } from "../helpers/project.mjs";
import { OUTPUT, startServer, type RunningServer } from "../helpers/server.mjs";
import { checkInFreshForm, connect, installInspector, openTool, startInspector } from "./inspector";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const results = (page: Page): Locator => page.getByText("Results", { exact: true }).locator("xpath=ancestor::*[3]");

// The 2025 era is asked over the message bus (server/features/message-bus): without it, only the 2026 era can be.
describe.each(hasFeature("message-bus") ? (["modern", "legacy"] as const) : (["modern"] as const))(
  "the MCP Inspector, %s era",
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
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await inspector?.stop();
      if (inspector) rmSync(inspector.home, { recursive: true, force: true });
      await server?.stop();
    });

    beforeAll(async () => {
      page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
      page.setDefaultTimeout(10_000);
    });
    // What the page showed when a step failed, for the person reading the failure.
    afterEach(async (context) => {
      if (context.task.result?.state !== "fail") return;
      mkdirSync(join(ROOT, "tests/.runs"), { recursive: true });
      await page.screenshot({
        path: join(ROOT, "tests/.runs", `inspector-${era}-${context.task.name.split(":")[0]}.png`),
      });
    });

    it("connects in its era", async () => {
      await page.goto(inspector.base);
      await connect(page);
      await expect
        .poll(() => page.locator("body").innerText())
        .toContain(era === "modern" ? "MCP 2026-07-28" : "MCP 2025-11-25");
    });

    it("delete_note: declining keeps the note, confirming deletes it", async () => {
      await page.goto(inspector.base);
      await openTool(page, "delete_note");
      const dialog = page.getByRole("dialog");

      await page.getByRole("textbox", { name: "note_id" }).fill("12");
      await page.getByRole("button", { name: "Execute Tool" }).click();
      await expect
        .poll(() => dialog.innerText())
        .toContain('Delete note 12 ("Conference talk")? This cannot be undone.');
      await dialog.getByRole("button", { name: "Decline" }).click();
      await expect.poll(() => results(page).innerText()).toMatch(/Kept note 12/);

      await page.getByRole("button", { name: "Close results" }).click();
      await page.getByRole("textbox", { name: "note_id" }).fill("12");
      await page.getByRole("button", { name: "Execute Tool" }).click();
      await expect.poll(() => dialog.innerText()).toContain("Delete note 12");
      await checkInFreshForm(dialog.getByRole("checkbox"));
      await dialog.getByRole("button", { name: "Submit" }).click();
      await expect.poll(() => results(page).innerText()).toMatch(/Deleted note 12/);
    });

    it("wizard: three rounds, one question each, then the summary", async () => {
      await page.goto(inspector.base);
      await openTool(page, "wizard");
      const dialog = page.getByRole("dialog");
      await page.getByRole("button", { name: "Execute Tool" }).click();

      await expect.poll(() => dialog.innerText()).toContain("Step 1 of 3");
      await dialog.getByRole("textbox").first().fill("Ada");
      await dialog.getByRole("button", { name: "Submit" }).click();

      await expect.poll(() => dialog.innerText()).toContain("Step 2 of 3: Ada, pick a colour.");
      await dialog.locator("input[aria-haspopup=listbox]").click();
      await page.getByRole("option", { name: "green" }).click();
      await dialog.getByRole("button", { name: "Submit" }).click();

      await expect.poll(() => dialog.innerText()).toContain("Step 3 of 3");
      await dialog.locator("input[inputmode=decimal]").fill("4");
      await dialog.getByRole("button", { name: "Submit" }).click();
      await expect.poll(() => results(page).innerText()).toContain("All set, Ada: a green one, size 4.");
    });
  },
);
