/** The tiny HTML pages of /connect (the URL-mode example), and the checks their form post needs. */
import { setResponseHeaders, setResponseStatus, type H3Event } from "h3";
import { requestOrigin } from "../mcp/kit";

/**
 * Sends an HTML page; `body` is trusted markup, so escape anything that came from outside.
 * The page cannot be framed (no clickjacking of its button).
 */
export function htmlPage(event: H3Event, title: string, body: string, status = 200): string {
  setResponseStatus(event, status);
  setResponseHeaders(event, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy":
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1.25rem}</style>
</head><body><h1>${title}</h1>${body}</body></html>`;
}

export const expiredLinkPage = (event: H3Event) =>
  htmlPage(event, "This link has expired", "<p>Start again from your MCP client.</p>", 404);

/**
 * Is this POST the page's own form, and not another site's? Browsers say where a request comes
 * from in `Sec-Fetch-Site` and `Origin`; a cross-site form post is refused.
 */
export function isSameOriginPost(event: H3Event): boolean {
  const site = event.node.req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return false;
  const origin = event.node.req.headers.origin;
  return origin === undefined || origin === requestOrigin(event);
}
