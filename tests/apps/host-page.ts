/**
 * Serves the test host (host/, built into one page by the apps feature's own Vite step) on a loopback port of its own,
 * and forwards its `/mcp` requests to MCP servers in turn (round robin): one origin for the page, as a chat client's
 * backend would, and with two servers, each request of a flow may land on either instance.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { buildView } from "../../server/features/apps/build-view";

let page: Promise<string> | undefined;
/** The host page, built once per test file. */
const hostPage = () => (page ??= buildView(fileURLToPath(new URL("host/", import.meta.url))));

/** Request headers the MCP servers read; the page's Origin stays here (the servers are not its origin). */
const FORWARDED = /^(?:content-type|accept|authorization|last-event-id|mcp-.*)$/;

async function forward(request: IncomingMessage, response: ServerResponse, target: string): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const forwarded = Object.fromEntries(
    Object.entries(request.headers).filter(([name]) => FORWARDED.test(name)) as [string, string][],
  );
  const upstream = await fetch(target, {
    method: request.method,
    headers: forwarded,
    body: chunks.length ? Buffer.concat(chunks) : undefined,
  });
  // fetch has decoded the body already (a server may compress it): its length and encoding no longer apply.
  const headers = [...upstream.headers].filter(([name]) => !/^(?:content-encoding|content-length)$/.test(name));
  response.writeHead(upstream.status, Object.fromEntries(headers));
  if (!upstream.body) return void response.end();
  await pipeline(Readable.fromWeb(upstream.body as never), response);
}

export interface HostPage {
  /** The page's URL, with `?era=modern|legacy`. */
  url(era: "modern" | "legacy"): string;
  close(): Promise<void>;
}

/** Serves the host page, its `/mcp` forwarded to `servers` (MCP endpoint URLs) in turn. */
export async function serveHostPage(servers: readonly string[]): Promise<HostPage> {
  const html = await hostPage();
  let turn = 0;
  const server = createServer((request, response) => {
    if (request.url?.startsWith("/mcp")) {
      const target = servers[turn++ % servers.length]!;
      // A server stopping mid-stream (the tests' end) ends that response: the page sees its stream close.
      forward(request, response, target).catch(() => response.destroy());
    } else if (request.url === "/" || request.url?.startsWith("/?")) {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    } else if (request.url === "/favicon.ico") {
      response.writeHead(204).end(); // asked for by the browser itself; a 404 would read as a problem of the page
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (era) => `http://127.0.0.1:${port}/?era=${era}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
