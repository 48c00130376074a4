/**
 * Everything the terminal client prints goes through one Output: results, questions and
 * notes on stdout; curl commands and errors on stderr. With --curl, stderr is a bash script
 * (`2> calls.sh`), so there each error line is a comment: the script only ever runs curl.
 * Colour only on a terminal, and never with NO_COLOR. On a terminal the progress bar redraws in
 * place, and anything printed while it is showing goes above it, so a log line never lands in
 * the middle of the bar.
 */
import { formatWithOptions } from "node:util";
import { safeText } from "./safe-text.mjs";

/** ANSI codes (on, off) of the few styles the client uses. */
const STYLES = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  yellow: [33, 39],
  cyan: [36, 39],
};

/** @typedef {keyof typeof STYLES} Style */
/** @typedef {(style: Style, text: string) => string} Styler */

/**
 * Colour for `stream` only when it is a terminal and NO_COLOR is unset (https://no-color.org).
 * @param {NodeJS.WriteStream} stream
 * @param {NodeJS.ProcessEnv} env
 * @returns {Styler}
 */
function stylerFor(stream, env) {
  if (!stream.isTTY || env.NO_COLOR) return (_style, text) => text;
  return (style, text) => `\x1b[${STYLES[style][0]}m${text}\x1b[${STYLES[style][1]}m`;
}

/** Each line of `text` as a bash comment (the text itself is safe: server strings in it are escaped). */
function asComments(/** @type {string} */ text) {
  return text
    .split("\n")
    .map((line) => `# ${line}`)
    .join("\n");
}

/**
 * @typedef {object} Output
 * @property {Styler} style styles text for stdout
 * @property {(text?: string) => void} line a line on stdout
 * @property {(text: string) => void} note a dimmed line on stdout (log messages, what was answered)
 * @property {(text: string) => void} error a line on stderr, in red (a `#` comment in a curl script)
 * @property {(text: string) => void} curl a curl command on stderr, plain, to copy or redirect to a file
 * @property {(text: string) => void} progress shows or updates the progress bar
 * @property {() => void} endProgress leaves the bar as it is and moves below it (before a question, after a result)
 */

/**
 * @param {{ stdout?: NodeJS.WriteStream, stderr?: NodeJS.WriteStream, env?: NodeJS.ProcessEnv, curlScript?: boolean }} [options]
 *   curlScript: stderr carries curl commands, so error lines are written as bash comments
 * @returns {Output}
 */
export function createOutput({
  stdout = process.stdout,
  stderr = process.stderr,
  env = process.env,
  curlScript = false,
} = {}) {
  const style = stylerFor(stdout, env);
  const errorStyle = stylerFor(stderr, env);
  const redraws = Boolean(stdout.isTTY);
  /** The bar being shown in place, if any. */
  let bar = "";

  /** Writes `text` above the progress bar (clearing and redrawing it), or just writes it. */
  const above = (/** @type {NodeJS.WriteStream} */ stream, /** @type {string} */ text) => {
    if (!bar) return void stream.write(`${text}\n`);
    stdout.write("\r\x1b[2K");
    stream.write(`${text}\n`);
    stdout.write(bar);
  };

  return {
    style,
    line: (text = "") => above(stdout, text),
    note: (text) => above(stdout, style("dim", text)),
    error: (text) => above(stderr, errorStyle("red", curlScript ? asComments(text) : text)),
    curl: (text) => above(stderr, text),
    progress(text) {
      if (!redraws) return void stdout.write(`${text}\n`);
      bar = text;
      stdout.write(`\r\x1b[2K${bar}`);
    },
    endProgress() {
      if (bar) stdout.write("\n");
      bar = "";
    },
  };
}

/**
 * Sends what the libraries write to the console through `output`, escaped: the official client
 * warns with server strings in the text (a tool name it drops from tools/list), which would
 * otherwise reach the terminal raw, or a `--curl` script as a command.
 * @param {Output} output
 */
export function routeConsole(output) {
  const text = (/** @type {unknown[]} */ args) => safeText(formatWithOptions({ colors: false }, ...args));
  console.log = console.info = console.debug = (...args) => output.note(text(args));
  console.warn = console.error = (...args) => output.error(text(args));
}
