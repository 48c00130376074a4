/**
 * The front page (`GET /`, and `GET /mcp` from a browser) against the fixture builds: in real
 * headless Chromium (what it shows, the same lists MCP clients get, snippets that work, no console
 * error or CSP violation, the copy buttons, light and dark) and over HTTP (content negotiation on
 * /mcp, the Host guard, the security headers, NITRO_MCP_RESOURCE_URL, sign-in) on Node;
 * then the same page from each other build (`OTHER_BUILDS`). Names come
 * from the fixtures and from the server's own answers, never from the shipped examples, so the
 * test survives a fork.
 */
import { execFile } from "node:child_process";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, openPage } from "../helpers/chromium.mjs";
import { needs, programPath } from "../helpers/programs.mjs";
import { expectJson404, post, type Json } from "../helpers/rpc";
import { startServer, startVercelOutput, type RunningServer } from "../helpers/server.mjs";
import { startWorker } from "../helpers/worker.mjs";
import { hasFeature } from "../helpers/project.mjs";

const run = promisify(execFile);
const ROOT = new URL("../..", import.meta.url).pathname;
/** Where the screenshot goes: FRONT_PAGE_SCREENSHOT, else a temporary file. */
const SCREENSHOT = process.env.FRONT_PAGE_SCREENSHOT ?? join(tmpdir(), "front-page.png");
const SNIPPETS = ["inspector", "typescript", "vscode", "claude", "curl", "terminal"];
const HTML_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

const origin = (server: RunningServer) => new URL(server.url).origin;

/** The name and version server/discover reports: what the page must show. */
async function serverInfoOf(server: RunningServer): Promise<{ name: string; version: string }> {
  return (await post(server.url, "server/discover")).body.result._meta["io.modelcontextprotocol/serverInfo"];
}

/** Opens the page (Chromium starts on first use) and checks it answered 200. */
async function open(url: string, options?: { colorScheme?: "light" | "dark" }) {
  browser ??= await launchChromium();
  const opened = await openPage(browser, url, options);
  expect(opened.response?.status()).toBe(200);
  return opened;
}

/** The snippets' texts, by section id. */
async function snippets(page: Page): Promise<Record<string, string>> {
  const entries = await Promise.all(
    SNIPPETS.map(async (id) => [id, await page.locator(`#${id} + p + .snippet pre`).textContent()] as const),
  );
  return Object.fromEntries(entries.map(([id, text]) => [id, text ?? ""]));
}

/** A GET with a Host header of our choosing (fetch sends its own), over a plain socket. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status?: number; type?: string; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode, type: res.headers["content-type"], body }));
    }).on("error", reject);
  });
}

/** Only the tests that open the page need Chromium: the ones over HTTP run without it. */
let browser: Browser | undefined;
afterAll(() => browser?.close());

describe("front page, Node build", () => {
  let server: RunningServer;
  let serverInfo: { name: string; version: string };
  beforeAll(async () => {
    server = await startServer();
    serverInfo = await serverInfoOf(server);
  });
  afterAll(() => server?.stop());

  it(
    "shows the server's name, version and endpoint, without a console error or a CSP violation",
    needs("chromium"),
    async () => {
      const { page, context, problems } = await open(`${origin(server)}/`);
      expect(await page.title()).toBe(`${serverInfo.name} — MCP server`);
      expect(await page.locator("h1").textContent()).toBe(`${serverInfo.name} v${serverInfo.version}`);
      expect(await page.locator("#endpoint").textContent()).toBe(server.url);
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(await problems()).toEqual([]);
      await context.close();
    },
  );

  it(
    "lists what tools/list, prompts/list, resources/list and resources/templates/list answer, with their descriptions",
    needs("chromium"),
    async () => {
      const { page, context } = await open(`${origin(server)}/`);
      const listed = async (method: string, key: string) => (await post(server.url, method)).body.result[key] as Json[];
      const onPage = (section: string) => page.locator(`#${section} dt code`).allTextContents();
      const sectionText = async (section: string) => (await page.locator(`#${section}`).textContent()) ?? "";

      const tools = await listed("tools/list", "tools");
      const prompts = await listed("prompts/list", "prompts");
      const resources = await listed("resources/list", "resources");
      const templates = await listed("resources/templates/list", "resourceTemplates");
      expect(await onPage("tools")).toEqual(tools.map((tool) => tool.name));
      expect(await onPage("prompts")).toEqual(prompts.map((prompt) => prompt.name));
      // resources/list adds what templates list per caller at run time; the page shows those templates instead.
      expect(resources.map((resource) => resource.uri)).toEqual(expect.arrayContaining(await onPage("resources")));
      expect(await onPage("templates")).toEqual(templates.map((template) => template.uriTemplate));
      for (const [section, items] of [
        ["tools", tools],
        ["prompts", prompts],
        ["templates", templates],
      ] as const) {
        for (const item of items) if (item.description) expect(await sectionText(section)).toContain(item.description);
      }

      // The fixtures, by name, with what their authors wrote.
      for (const [section, key, text] of [
        ["tools", "confirm_increment", "Asks for confirmation, then increments the counter"],
        ["tools", "structured_sum", "Adds two numbers; structured output"],
        ["prompts", "asking_prompt", "Asks for a topic and a tone"],
        ["prompts", "draft", "Arguments: subject, style (optional)"],
        ["resources", "fixture://about", "Static text, cacheable by anyone for an hour"],
        ["templates", "fixture://items/{id}", "fixture-items"],
      ]) {
        expect(await onPage(section!)).toContain(key);
        expect(await sectionText(section!)).toContain(text);
      }
      await context.close();
    },
  );

  it("puts the server's URL in every snippet, and the snippets work as pasted", needs("chromium", "curl"), async () => {
    const { page, context } = await open(`${origin(server)}/`);
    const texts = await snippets(page);
    for (const id of SNIPPETS) expect(texts[id], id).toContain(server.url);

    expect(JSON.parse(texts.vscode!)).toEqual({ servers: { [serverInfo.name]: { type: "http", url: server.url } } });
    expect(texts.claude).toBe(server.url);
    expect(await page.locator("#claude + p").textContent()).toContain("not https");
    expect(texts.inspector).toContain("npx @modelcontextprotocol/inspector");
    expect(texts.terminal).toBe(`npm run client -- --url '${server.url}'`);

    programPath("curl"); // under CI, a missing curl fails here, saying how to install it
    const discovered = JSON.parse((await run("sh", ["-c", texts.curl!])).stdout);
    expect(discovered.result.supportedVersions).toContain("2026-07-28");
    expect(discovered.result._meta["io.modelcontextprotocol/serverInfo"]).toEqual(serverInfo);

    // The TypeScript snippet, run by Node from the repository, where @modelcontextprotocol/client is installed.
    const printed = (
      await run(process.execPath, ["--input-type=module", "-e", texts.typescript!], { cwd: ROOT, timeout: 20_000 })
    ).stdout;
    expect(printed).toContain("confirm_increment");
    await context.close();
  });

  it("copies a snippet with its Copy button", needs("chromium"), async () => {
    const { page, context, problems } = await open(`${origin(server)}/`);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: origin(server) });
    expect(await page.locator("pre[data-copy]").count()).toBe(SNIPPETS.length + 1); // and the endpoint itself
    expect(await page.locator("button.copy").count()).toBe(SNIPPETS.length + 1);
    const button = page.locator("#vscode + p + .snippet button.copy");
    await button.click();
    await expect.poll(() => button.textContent()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe((await snippets(page)).vscode);
    expect(await problems()).toEqual([]);
    await context.close();
  });

  it("follows the reader's colour scheme", needs("chromium"), async () => {
    for (const [colorScheme, background] of [
      ["light", "rgb(255, 255, 255)"],
      ["dark", "rgb(13, 17, 23)"],
    ] as const) {
      const { page, context } = await open(`${origin(server)}/`, { colorScheme });
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(background);
      await context.close();
    }
  });

  it("answers GET /mcp from a browser with the page, and from anything else with 405", needs("chromium"), async () => {
    const { page, context, problems } = await open(server.url);
    expect(await page.locator("#endpoint").textContent()).toBe(server.url);
    expect(await problems()).toEqual([]);
    await context.close();

    const html = await fetch(server.url, { headers: { accept: HTML_ACCEPT } });
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html.headers.get("vary")).toMatch(/accept/i);
    expect(await html.text()).toContain("<!doctype html>");

    for (const accept of [
      "application/json, text/event-stream",
      "*/*",
      "application/json",
      "text/html;q=0.5, application/json",
      undefined,
    ]) {
      const response = await fetch(server.url, { headers: accept === undefined ? {} : { accept } });
      expect(response.status, String(accept)).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect(response.headers.get("content-type")).toBe("application/json");
      expect((await response.json()).error.code).toBe(-32600);
    }
  });

  it("sends the security headers, and answers HEAD too", async () => {
    const response = await fetch(`${origin(server)}/`);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    expect(csp).not.toContain("unsafe");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(Number(/max-age=(\d+)/.exec(response.headers.get("cache-control") ?? "")?.[1])).toBeLessThanOrEqual(300);

    const head = await fetch(`${origin(server)}/`, { method: "HEAD" });
    expect([head.status, head.headers.get("content-type"), await head.text()]).toEqual([
      200,
      "text/html; charset=utf-8",
      "",
    ]);
    const posted = await fetch(`${origin(server)}/`, { method: "POST" });
    expect([posted.status, posted.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
  });

  it("refuses markup in Host, and builds the URL from a Host it accepts", async () => {
    const port = new URL(server.url).port;
    for (const host of [`"><script>alert(1)</script>`, `127.0.0.1:${port}"><b>x</b>`, `evil.example:${port}`]) {
      const response = await rawGet(`${origin(server)}/`, { host, accept: HTML_ACCEPT });
      expect(response.status, host).toBeGreaterThanOrEqual(400);
      expect(response.type).toBe("application/json");
      expect(response.body).not.toContain("<");
    }
    const ipv6 = await rawGet(`${origin(server)}/`, { host: `[::1]:${port}` });
    expect(ipv6.status).toBe(200);
    expect(ipv6.body).toContain(`<code>http://[::1]:${port}/mcp</code>`);
  });
});

describe("front page, Node build with settings", () => {
  const RESOURCE = "https://mcp.example.test/mcp";
  const HOSTILE_NAME = `<img src=x onerror="alert(1)"> & 'friends'`;
  let server: RunningServer;
  let signedIn: RunningServer;
  beforeAll(async () => {
    // Without NITRO_MCP_AUTH_ISSUER, NITRO_MCP_RESOURCE_URL only names the endpoint: sign-in stays off.
    [server, signedIn] = await Promise.all([
      startServer({ env: { NITRO_MCP_RESOURCE_URL: RESOURCE, NITRO_MCP_SERVER_NAME: HOSTILE_NAME } }),
      startServer({ env: { NITRO_MCP_AUTH_TOKENS: "ci:front-page-test-token" } }),
    ]);
  });
  afterAll(() => Promise.all([server?.stop(), signedIn?.stop()]));

  it("shows NITRO_MCP_RESOURCE_URL in every snippet, and the server's name as text", needs("chromium"), async () => {
    const { page, context, problems } = await open(`${origin(server)}/`);
    expect(await page.locator("#endpoint").textContent()).toBe(RESOURCE);
    const texts = await snippets(page);
    for (const id of SNIPPETS) {
      expect(texts[id], id).toContain(RESOURCE);
      expect(texts[id], id).not.toContain(origin(server));
    }
    expect(await page.locator("#claude + p").textContent()).not.toContain("not https");
    const { name, version } = await serverInfoOf(server);
    expect(name).toBe(HOSTILE_NAME);
    expect(await page.locator("h1").textContent()).toBe(`${HOSTILE_NAME} v${version}`);
    expect(JSON.parse(texts.vscode!)).toEqual({ servers: { [HOSTILE_NAME]: { type: "http", url: RESOURCE } } });
    expect(await page.locator("img").count()).toBe(0);
    expect(await problems()).toEqual([]);
    await context.close();
  });

  it.runIf(hasFeature("sign-in"))(
    "lists nothing to an anonymous browser when calling the server needs a token",
    needs("chromium"),
    async () => {
      const { page, context } = await open(`${origin(signedIn)}/`);
      const text = (await page.locator("main").textContent()) ?? "";
      expect(text).toContain("asks its clients to sign in");
      expect(text).not.toContain("confirm_increment");
      expect(await page.locator("#tools").count()).toBe(0);
      expect(await page.locator("#endpoint").textContent()).toBe(signedIn.url);
      await context.close();
    },
  );
});

/** The builds beside Node's that serve it too. */
const OTHER_BUILDS: [string, () => Promise<RunningServer>][] = [["Vercel output", startVercelOutput]];
// with:cloudflare
OTHER_BUILDS.unshift(["Cloudflare build in workerd", startWorker]);
// end with:cloudflare

describe.each(OTHER_BUILDS)("front page, %s", (_, start) => {
  let target: RunningServer;
  beforeAll(async () => {
    target = await start();
  });
  afterAll(() => target?.stop());

  it("serves the page, with its headers, and renders it without a problem", needs("chromium"), async () => {
    const response = await fetch(`${origin(target)}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await response.text()).toContain(`<code>${target.url}</code>`);

    const { page, context, problems } = await open(target.url);
    expect(await page.locator("#endpoint").textContent()).toBe(target.url);
    expect(await page.locator("#tools dt code").allTextContents()).toContain("confirm_increment");
    expect(await problems()).toEqual([]);
    await context.close();
  });

  it("keeps 405 for MCP clients and answers unknown paths with a JSON 404", async () => {
    const mcp = await fetch(target.url, { headers: { accept: "application/json, text/event-stream" } });
    expect(mcp.status).toBe(405);
    expect(mcp.headers.get("allow")).toBe("POST");
    for (const method of ["GET", "POST"]) {
      await expectJson404(await fetch(`${origin(target)}/nope`, { method, headers: { accept: HTML_ACCEPT } }), "/nope");
    }
  });
});
