/**
 * The MCP Inspector's web UI (2.x) for the tests of this folder: started with the command the front page gives
 * (`--transport http --server-url … --protocol-era …`) on a Node 22 binary from the npm registry (it needs Node >= 22.19),
 * with this folder's own packages (installed on first use).
 */
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Locator, Page } from "playwright-core";
import { MODERN_NODE, nodeBinary } from "../helpers/node-binary.mjs";
import { ensureOwnDependencies } from "../helpers/own-dependencies.mjs";
import { startProcess, type RunningServer } from "../helpers/server.mjs";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const LAUNCHER = join(HERE, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");

/** Installs the Inspector into this folder, the first time and whenever its lock file changes. */
export const installInspector = (): void => ensureOwnDependencies(HERE, { node: nodeBinary(MODERN_NODE) });

/** A port free right now: the Inspector's web server needs a fixed one (its allowed origins derive from it). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once("error", reject);
  });

/** The Inspector's web UI on `serverUrl`, in `era`; `base` is its page, with the session's API token. */
export async function startInspector(
  serverUrl: string,
  era: "modern" | "legacy",
): Promise<RunningServer & { home: string }> {
  const node = nodeBinary(MODERN_NODE);
  const home = mkdtempSync(join(tmpdir(), "inspector-"));
  const inspector = await startProcess({
    command: node,
    args: [LAUNCHER, "--transport", "http", "--server-url", serverUrl, "--protocol-era", era],
    env: {
      PATH: process.env.PATH,
      HOME: home,
      MCP_STORAGE_DIR: home,
      MCP_INSPECTOR_SECRET_STORE: "memory",
      MCP_AUTO_OPEN_ENABLED: "false",
      CLIENT_PORT: String(await freePort()),
      MCP_SANDBOX_PORT: "0",
      MCP_APP_ORIGIN_PORT: "0",
    },
    ready: /running at:\s+(http:\/\/\S+MCP_INSPECTOR_API_TOKEN=[0-9a-f]+)/,
    timeoutMs: 60_000,
  });
  return { ...inspector, home };
}

/** Connects the Inspector's one server (the page freshly loaded). */
export async function connect(page: Page): Promise<void> {
  const name = /Connect or disconnect/;
  // The switch's own track covers its input, and right after the page loads the input may be laid out again at any moment:
  // the click is dispatched to the input itself, which needs no box to click, and toggles it as a user's click does. The
  // switch is on from the moment a click is taken (connecting, then connected); still off, the page dropped it: again.
  const on = page.getByRole("switch", { name, checked: true });
  for (let attempt = 1; !(await on.count()); attempt++) {
    if (attempt > 3) throw new Error("the Inspector's connect switch stayed off after three clicks");
    await page.getByRole("switch", { name }).dispatchEvent("click");
    await on.waitFor({ timeout: 5_000 }).catch(() => undefined);
  }
  await page.getByText("Connected", { exact: true }).waitFor();
}

/** Connects and opens `tool` on the Tools tab. */
export async function openTool(page: Page, tool: string): Promise<void> {
  await connect(page);
  await page.getByText("Tools", { exact: true }).first().click();
  await page.getByText(tool, { exact: true }).first().click();
}

/**
 * Checks `checkbox` in a dialog that has just opened. The Inspector's form may render its fields once more right after it
 * opens, which undoes a click that lands before it: click again until the box stays checked.
 */
export async function checkInFreshForm(checkbox: Locator): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await checkbox.check({ timeout: 2_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}
