/**
 * `--curl`: every HTTP request the client sends, printed as a curl command that sends the same
 * bytes again: the URL, the headers as sent (MCP-Protocol-Version, Mcp-Method, Mcp-Name, …) and
 * the JSON body, sealed `requestState` and answers included. The commands go to stderr, so
 * `npm run client -- --curl call … 2> calls.sh` leaves a script `bash calls.sh` replays.
 * The bodies carry server strings (names, the sealed requestState), so every argument is quoted
 * and every other line is a comment: replaying the script runs curl and nothing else.
 */
import { isPrintable, safeText } from "./safe-text.mjs";

/**
 * `text` as one bash word. Printable text goes in single quotes, each embedded quote closed,
 * escaped and reopened; text with control characters in `$'…'`, those bytes as `\xHH`, so the
 * same bytes are sent again without a raw control character reaching the script or the terminal.
 */
function shellQuote(/** @type {string} */ text) {
  if (isPrintable(text)) return `'${text.replaceAll("'", `'\\''`)}'`;
  const bytes = [...Buffer.from(text, "utf8")].map((byte) => {
    if (byte === 0x5c || byte === 0x27) return `\\${String.fromCharCode(byte)}`; // \ and \'
    return byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, "0")}`;
  });
  return `$'${bytes.join("")}'`;
}

/**
 * A bash comment saying what the request is, so a long list of commands stays readable.
 * @param {Headers} headers
 * @param {unknown} body
 */
function describe(headers, body) {
  const what = safeText([headers.get("mcp-method"), headers.get("mcp-name")].filter(Boolean).join(" "));
  if (typeof body !== "string") return `# ${what || "request"}`;
  try {
    const params = JSON.parse(body).params ?? {};
    if (params.requestState !== undefined)
      return `# ${what}: retry with the answers (inputResponses) and the sealed requestState`;
  } catch {
    // Not JSON: described by its headers alone.
  }
  return `# ${what || "request"}`;
}

/**
 * The curl command that repeats one fetch.
 * @param {string | URL} url
 * @param {RequestInit} [init]
 */
function curlCommand(url, init = {}) {
  const headers = new Headers(init.headers);
  const method = (init.method ?? "GET").toUpperCase();
  const lines = [
    `curl -sS -w '\\n' ${shellQuote(String(url))}${method === "POST" && init.body ? "" : ` -X ${method}`}`,
  ];
  for (const [name, value] of headers) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (typeof init.body === "string") lines.push(`--data-raw ${shellQuote(init.body)}`);
  return `${describe(headers, init.body)}\n${lines.join(" \\\n  ")}`;
}

/**
 * A fetch for the transport that prints each request as a curl command, then sends it.
 * @param {(command: string) => void} print
 * @returns {import("@modelcontextprotocol/client").FetchLike}
 */
export function printingFetch(print) {
  return (url, init) => {
    print(curlCommand(url, init));
    return fetch(url, init);
  };
}
