/**
 * A real headless Chromium for the browser tests: the `chromium` on PATH (Debian's package; see
 * programs.mjs), driven by playwright-core, which ships no browser of its own.
 * Plain JS with JSDoc types, like the other helpers that start programs.
 */
import { chromium } from "playwright-core";
import { programPath } from "./programs.mjs";

/**
 * Launches headless Chromium; close it with `browser.close()`.
 * `--no-sandbox`: CI and containers run the tests as root, where Chromium's sandbox refuses to start.
 * @returns {Promise<import("playwright-core").Browser>}
 */
export function launchChromium() {
  const executablePath = programPath("chromium");
  return chromium.launch({ executablePath, headless: true, args: ["--no-sandbox"] });
}

/**
 * @typedef {object} OpenedPage
 * @property {import("playwright-core").Page} page
 * @property {import("playwright-core").BrowserContext} context close it when done
 * @property {import("playwright-core").Response | null} response the navigation's response
 * @property {() => Promise<string[]>} problems what went wrong so far: console errors and warnings,
 *   uncaught exceptions, failed requests, responses of 400 and more, Content-Security-Policy violations
 */

/**
 * Opens `url` in a fresh context (1100×900), recording everything that goes wrong in the page.
 * @param {import("playwright-core").Browser} browser
 * @param {string} url
 * @param {{ colorScheme?: "light" | "dark" }} [options]
 * @returns {Promise<OpenedPage>}
 */
export async function openPage(browser, url, options = {}) {
  const context = await browser.newContext({
    viewport: { width: 1100, height: 900 },
    colorScheme: options.colorScheme ?? "light",
  });
  // Injected by the browser itself, so the page's own CSP does not apply to it: it sees every violation.
  await context.addInitScript(() => {
    const seen = [];
    globalThis.cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(`CSP: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const page = await context.newPage();
  /** @type {string[]} */
  const problems = [];
  page.on(
    "console",
    (message) => ["error", "warning"].includes(message.type()) && problems.push(`console: ${message.text()}`),
  );
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("requestfailed", (request) => problems.push(`failed: ${request.url()}`));
  page.on(
    "response",
    (response) => response.status() >= 400 && problems.push(`${response.status()}: ${response.url()}`),
  );
  const response = await page.goto(url);
  return {
    page,
    context,
    response,
    problems: async () => [...problems, ...(await page.evaluate(() => globalThis.cspViolations ?? []))],
  };
}
