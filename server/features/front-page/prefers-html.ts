/**
 * Content negotiation for `GET /mcp`: a browser opening the endpoint gets the front page, while an
 * MCP client keeps its 405. Browsers send `text/html` first (`text/html,application/xhtml+xml,…`);
 * MCP clients send `application/json, text/event-stream`, curl sends `*\/*`, some send nothing.
 * The server card negotiates its media type with the same reading of `Accept`.
 */

/** The media ranges `accept` names, lower case, with their quality; an empty or malformed range is left out. */
function mediaRanges(accept: string | undefined): { type: string; quality: number }[] {
  return (accept ?? "").split(",").flatMap((range) => {
    const [type, ...parameters] = range.split(";").map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    return type && quality >= 0 && quality <= 1 ? [{ type, quality }] : [];
  });
}

/** The quality `accept` gives `type` by naming it explicitly (wildcards do not count); 0 if it does not. */
export function explicitQuality(accept: string | undefined, type: string): number {
  return Math.max(
    0,
    ...mediaRanges(accept)
      .filter((range) => range.type === type)
      .map((range) => range.quality),
  );
}

/**
 * Whether `accept` names `text/html` explicitly with a quality above zero and no lower than any
 * other media range it names (wildcards included).
 */
export function prefersHtml(accept: string | undefined): boolean {
  const html = explicitQuality(accept, "text/html");
  return html > 0 && html >= Math.max(0, ...mediaRanges(accept).map((range) => range.quality));
}
