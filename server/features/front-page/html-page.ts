/**
 * A whole HTML page with the headers that make it safe to serve. Its one style sheet and its one
 * script are inline and allowed by their SHA-256 hashes, so the Content-Security-Policy allows
 * nothing else: no other script, no inline event handler, no external resource, no form target,
 * no framing. A page loads nothing from anywhere, which also keeps it identical on every target.
 */
import { setResponseHeaders, type H3Event } from "h3";
import type { SafeHtml } from "./html";
import { base64Encode, escapeHtml, utf8Encode } from "../../mcp/kit";

export interface HtmlPage {
  /** Text: escaped here. */
  readonly title: string;
  /** The page's CSS, trusted (a constant of this server, never built from input). */
  readonly style: string;
  /** The page's JavaScript, trusted like `style`; none by default. */
  readonly script?: string;
  readonly body: SafeHtml;
}

/** `'sha256-…'`, the CSP source that allows exactly this inline text (Web Crypto: the same on every platform). */
async function cspHash(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Encode(text)));
  return `'sha256-${base64Encode(digest)}'`;
}

/** The policy: nothing is allowed but the page's own style sheet and script. */
async function contentSecurityPolicy(page: HtmlPage): Promise<string> {
  const directives = ["default-src 'none'", `style-src ${await cspHash(page.style)}`];
  if (page.script) directives.push(`script-src ${await cspHash(page.script)}`);
  directives.push("base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'");
  return directives.join("; ");
}

/**
 * Sets the page's headers and returns its markup, for a route to return.
 * It may be cached for a minute, by the browser only: the URLs it shows come from the request's Host.
 */
export async function sendHtmlPage(event: H3Event, page: HtmlPage): Promise<string> {
  setResponseHeaders(event, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": await contentSecurityPolicy(page),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "private, max-age=60",
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style>${page.style}</style>
</head>
<body>
${page.body.markup}
${page.script ? `<script>${page.script}</script>` : ""}
</body>
</html>
`;
}
