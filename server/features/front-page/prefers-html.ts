/**
 * Content negotiation for `GET /mcp`: a browser opening the endpoint gets the front page, while an
 * MCP client keeps its 405. Browsers send `text/html` first (`text/html,application/xhtml+xml,…`);
 * MCP clients send `application/json, text/event-stream`, curl sends `*\/*`, some send nothing.
 */

/**
 * Whether `accept` names `text/html` explicitly with a quality above zero and no lower than any
 * other media range it names (wildcards included).
 */
export function prefersHtml(accept: string | undefined): boolean {
  let html = 0;
  let best = 0;
  for (const range of (accept ?? "").split(",")) {
    const [type, ...parameters] = range.split(";").map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    if (!type || !(quality >= 0 && quality <= 1)) continue; // an empty or malformed range counts for nothing
    if (type === "text/html") html = Math.max(html, quality);
    best = Math.max(best, quality);
  }
  return html > 0 && html >= best;
}
