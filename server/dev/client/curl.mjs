/**
 * `--curl`: every HTTP request the client sends, printed as a curl command that sends the same
 * bytes again: the URL, the headers as sent (MCP-Protocol-Version, Mcp-Method, Mcp-Name, …) and
 * the JSON body, sealed `requestState` and answers included. The commands go to stderr, so
 * `npm run client -- --curl call … 2> calls.sh` leaves a script `bash calls.sh` replays.
 */

/** `text` as one bash word: single quotes, each embedded quote closed, escaped and reopened. */
function shellQuote(/** @type {string} */ text) {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A bash comment saying what the request is, so a long list of commands stays readable.
 * @param {Headers} headers
 * @param {unknown} body
 */
function describe(headers, body) {
  const what = [headers.get("mcp-method"), headers.get("mcp-name")].filter(Boolean).join(" ");
  if (typeof body !== "string") return `# ${what || "request"}`;
  try {
    const params = JSON.parse(body).params ?? {};
    if (params.requestState !== undefined) return `# ${what}: retry with the answers (inputResponses) and the sealed requestState`;
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
  const lines = [`curl -sS -w '\\n' ${shellQuote(String(url))}${method === "POST" && init.body ? "" : ` -X ${method}`}`];
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
