/**
 * How what comes back is shown: the catalog, tool results (text, other content by kind,
 * structuredContent as JSON), prompt messages, resource contents, the progress bar, and
 * failures in a sentence that says what to do. Every server string goes through safe-text.mjs:
 * one-line fields (names, descriptions, messages) with their newlines escaped, texts shown as
 * lines (results, resource contents) with their line breaks kept.
 */
import { PrintableError, safeLines, safeText } from "./safe-text.mjs";

/** @typedef {import("./output.mjs").Output} Output */

const HEADINGS = { tool: "Tools", prompt: "Prompts", resource: "Resources", template: "Resource templates" };
const BAR_WIDTH = 24;

/**
 * The catalog grouped by kind, numbered in order (the numbers the interactive client picks by).
 * @param {import("./catalog.mjs").CatalogEntry[]} entries
 * @param {Output} output
 */
export function renderCatalog(entries, output) {
  const { style } = output;
  const names = entries.map((entry) => safeText(entry.name));
  const width = Math.max(0, ...names.map((name) => name.length));
  const digits = String(entries.length).length;
  for (const kind of /** @type {const} */ (["tool", "prompt", "resource", "template"])) {
    if (!entries.some((entry) => entry.kind === kind)) continue;
    output.line(style("bold", HEADINGS[kind]));
    entries.forEach((entry, i) => {
      if (entry.kind !== kind) return;
      const about = [
        entry.kind === "resource" || entry.kind === "template" ? entry.title : undefined,
        entry.description,
      ]
        .filter(Boolean)
        .map(safeText)
        .join(": ");
      output.line(
        `  ${style("cyan", String(i + 1).padStart(digits))}  ${names[i].padEnd(width)}  ${style("dim", about)}`,
      );
    });
  }
}

/**
 * One content block (of a tool result or a prompt message), safe to print.
 * @param {import("@modelcontextprotocol/client").ContentBlock} block
 */
function contentText(block) {
  switch (block.type) {
    case "text":
      return safeLines(block.text);
    case "image":
    case "audio":
      return `[${block.type}, ${safeText(block.mimeType)}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
    case "resource_link":
      return `[link] ${safeText(block.name)}: ${safeText(block.uri)}`;
    case "resource":
      return "text" in block.resource
        ? safeLines(block.resource.text)
        : `[resource ${safeText(block.resource.uri)}, binary]`;
    default:
      return safeText(JSON.stringify(block));
  }
}

/**
 * @param {import("@modelcontextprotocol/client").CallToolResult} result
 * @param {Output} output
 */
export function renderToolResult(result, output) {
  for (const block of result.content ?? [])
    output.line(result.isError ? output.style("red", contentText(block)) : contentText(block));
  if (result.structuredContent !== undefined) {
    output.line(output.style("dim", "structuredContent:"));
    output.line(safeLines(JSON.stringify(result.structuredContent, null, 2)));
  }
  if (result.isError) output.line(output.style("red", "(the tool reported an error: isError)"));
}

/**
 * @param {import("@modelcontextprotocol/client").GetPromptResult} result
 * @param {Output} output
 */
export function renderPrompt(result, output) {
  if (result.description) output.line(output.style("dim", safeText(result.description)));
  for (const message of result.messages)
    output.line(`${output.style("bold", `${safeText(message.role)}:`)} ${contentText(message.content)}`);
}

/**
 * @param {import("@modelcontextprotocol/client").ReadResourceResult} result
 * @param {Output} output
 */
export function renderResource(result, output) {
  for (const contents of result.contents) {
    output.line(
      output.style("dim", `${safeText(contents.uri)}${contents.mimeType ? ` (${safeText(contents.mimeType)})` : ""}`),
    );
    output.line(
      "text" in contents ? safeLines(contents.text) : `[binary, ${Math.floor((contents.blob.length * 3) / 4)} bytes]`,
    );
  }
}

/**
 * A progress notification as a bar when it has a total, as its message otherwise.
 * @param {import("@modelcontextprotocol/client").Progress} progress
 */
export function progressBar({ progress, total, message }) {
  if (!total) return `… ${safeText(message ?? progress)}`;
  const filled = Math.round(Math.min(1, Math.max(0, progress / total)) * BAR_WIDTH);
  return `[${"█".repeat(filled)}${"░".repeat(BAR_WIDTH - filled)}] ${safeText(progress)}/${safeText(total)}${message ? ` ${safeText(message)}` : ""}`;
}

/** Node's codes for a server that cannot be reached. */
const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ECONNRESET", "ETIMEDOUT"]);

/** Why the server could not be reached, from `error`'s cause chain (fetch keeps the network error there). */
function unreachableCode(/** @type {unknown} */ error) {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ("code" in current && typeof current.code === "string" && UNREACHABLE.has(current.code)) return current.code;
  }
  return undefined;
}

/**
 * A failure in one sentence, with what to do when there is something to do.
 * @param {unknown} error
 * @param {string} url the server's URL
 */
export function describeFailure(error, url) {
  const code = unreachableCode(error);
  if (code)
    return `Cannot reach ${safeText(url)} (${code}). Is the server running? Start it with \`npm run dev\`, or pass --url.`;
  if (error instanceof PrintableError) return error.message;
  if (!(error instanceof Error)) return safeText(error);
  const message = safeText(error.message);
  if (error.name === "UnauthorizedError" || /\b401\b/.test(error.message))
    return `${message}\nThe server needs sign-in: pass a valid access token with --token.`;
  const cause =
    error.cause instanceof Error && !error.message.includes(error.cause.message)
      ? ` (${safeText(error.cause.message)})`
      : "";
  const rpcCode = "code" in error && typeof error.code === "number" ? ` (JSON-RPC error ${error.code})` : "";
  return `${message}${cause}${rpcCode}`;
}
