/**
 * Every string a server sends is untrusted, and the terminal obeys control characters: ESC and
 * C1 sequences set the title, write the clipboard (OSC 52), plant hyperlinks (OSC 8) or clear
 * the screen; a bare CR overwrites what was printed; bidi overrides and line separators disguise
 * text. So each server string is printed through one of these functions, which show such
 * characters as visible escapes (`\x1b`, `\u202e`) instead of emitting them.
 */

/**
 * C0 controls (newline included), DEL, C1 controls, the Unicode line and paragraph separators,
 * and the bidi controls (marks, embeddings, overrides, isolates).
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** Whether `text` has none of those characters, so prints as it is. */
export function isPrintable(/** @type {string} */ text) {
  return !text.match(UNPRINTABLE);
}

const NAMED = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** One character as its escape: `\n`, `\x1b`, `\u202e`. */
function escapeCharacter(/** @type {string} */ character) {
  const named = NAMED[/** @type {keyof typeof NAMED} */ (character)];
  if (named) return named;
  const code = /** @type {number} */ (character.codePointAt(0));
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * A server string for one line of output (a name, a title, a message): every control character,
 * its newlines too, shown escaped.
 * @param {unknown} text
 */
export function safeText(text) {
  return String(text).replace(UNPRINTABLE, escapeCharacter);
}

/**
 * A server text shown as several lines (a tool's text result, a resource's text, instructions):
 * its line breaks (LF or CRLF) kept as line breaks, every other control character shown escaped.
 * @param {unknown} text
 */
export function safeLines(text) {
  return String(text).split(/\r?\n/).map(safeText).join("\n");
}

/**
 * A link a server asks the person to open, shown so it cannot mislead: parsed, with its scheme
 * and host spelled out (a host in another script shows as punycode), and anything but an http or
 * https link called out as one never to open.
 * @param {string} url
 * @returns {{ opens: boolean, shown: string }} whether it is a web link worth offering, and how to show it
 */
export function describeLink(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return { opens: false, shown: `not a valid URL, do not open it: ${safeText(url)}` };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return {
      opens: false,
      shown: `a ${safeText(parsed.protocol)} link, not http or https, do not open it: ${safeText(parsed.href)}`,
    };
  }
  return {
    opens: true,
    shown: `${safeText(parsed.href)} (${parsed.protocol.slice(0, -1)}, host ${safeText(parsed.host)})`,
  };
}

/**
 * An error the client words itself, every server string in it already passed through safeText:
 * printed as it is, its own line breaks kept. Any other error's message may hold a server's
 * words (a JSON-RPC error, an HTTP body) and is escaped whole.
 */
export class PrintableError extends Error {
  name = "PrintableError";
}
