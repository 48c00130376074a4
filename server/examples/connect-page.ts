/** The tiny HTML pages of /connect (the URL-mode example). */
import { setResponseHeader, setResponseStatus, type H3Event } from "h3";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Sends an HTML page; `body` is trusted markup, so escape anything that came from outside. */
export function htmlPage(event: H3Event, title: string, body: string, status = 200): string {
  setResponseStatus(event, status);
  setResponseHeader(event, "content-type", "text/html; charset=utf-8");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1.25rem}</style>
</head><body><h1>${title}</h1>${body}</body></html>`;
}

export const expiredLinkPage = (event: H3Event) =>
  htmlPage(event, "This link has expired", "<p>Start again from your MCP client.</p>", 404);
