/**
 * The operator's log: one JSON object per line (`time`, `level`, `msg`, and fields), which log pipelines and platforms'
 * log services read as they are; in `npm run dev`, readable text instead (`NITRO_MCP_LOG_FORMAT` overrides either). What went wrong
 * and why goes here, for the operator only: clients get a reference at most. Never log a secret, a token or a sealed state.
 *
 * Lines carry what clients sent (ids, methods, names, URIs, error messages quoting them), so in both formats a line is one line:
 * no raw newline or control character reaches the reader, who could otherwise be shown forged lines or terminal escapes. A log
 * reader that goes away (a closed pipe, a full disk) costs the lines it misses, never the server.
 */

import { openLineWriters } from "#mcp-platform";

export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Readonly<Record<string, unknown>>;

type Write = (line: string) => void;

/** The platform's writers; their own warnings (a stream failed, lines dropped) are lines like any other. */
const openWriters = () => openLineWriters((message) => formatLine("warn", message));

let format: "json" | "pretty" = import.meta.dev ? "pretty" : "json";
let writers: Record<LogLevel, Write> | undefined;

/** Set once at start-up from `NITRO_MCP_LOG_FORMAT` (see `plugins/mcp-startup.ts`), which also opens the output. */
export function setLogFormat(chosen: "json" | "pretty" | "auto"): void {
  format = chosen === "auto" ? (import.meta.dev ? "pretty" : "json") : chosen;
  writers ??= openWriters();
}

/** An error as plain fields: its stack is for the operator (clients never see it). */
export const errorFields = (error: unknown): LogFields =>
  error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack }
    : { message: String(error) };

/**
 * Control characters (C0, DEL, C1), the Unicode line and paragraph separators and the bidi controls. JSON.stringify escapes C0
 * only; a terminal acts on ESC and on C1's CSI; some readers break lines at U+2028; bidi overrides make a line read otherwise.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, "g");
const SHORT_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const escapeOne = (char: string) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * `text` with every control character written as its JSON escape (`\n`, `\u001b`). Applied to a JSON line, it escapes what
 * JSON.stringify left raw and keeps the line valid JSON. The common case, nothing to escape, returns `text` itself.
 */
export const escapeControlCharacters = (text: string): string =>
  CONTROL.test(text) ? text.replace(CONTROLS, escapeOne) : text;

/**
 * An error's stack, its frames on lines of their own; what comes before them (its name and
 * message, which may quote a client) escaped onto the first line.
 */
function prettyStack({ stack, message = "" }: { stack?: string; message?: string }): string {
  if (!stack) return escapeControlCharacters(message);
  const messageEnd = stack.includes(message) ? stack.indexOf(message) + message.length : 0;
  const frames = stack.indexOf("\n    at ", messageEnd);
  if (frames < 0) return escapeControlCharacters(stack);
  return [stack.slice(0, frames), ...stack.slice(frames + 1).split("\n")].map(escapeControlCharacters).join("\n");
}

function prettyLine(level: LogLevel, message: string, fields: LogFields): string {
  const { error, ...rest } = fields as { error?: { stack?: string; message?: string } };
  const details = Object.entries(rest)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  const head = escapeControlCharacters(
    `[mcp] ${level === "info" ? "" : `${level}: `}${message}${details.length ? `  ${details.join(" ")}` : ""}`,
  );
  return error ? `${head}\n${prettyStack(error)}` : head;
}

// The time of a line: its date and second formatted once a second (formatting a date costs as much as serving a small
// request), its milliseconds appended.
let lastSecond = Number.NEGATIVE_INFINITY;
let secondText = "";
function isoTime(): string {
  const now = Date.now();
  if (now - lastSecond >= 1000 || now < lastSecond) {
    lastSecond = Math.floor(now / 1000) * 1000;
    secondText = new Date(lastSecond).toISOString().slice(0, 20);
  }
  return `${secondText}${String(now - lastSecond).padStart(3, "0")}Z`;
}

const jsonHead = (level: LogLevel, message: string) =>
  `{"time":"${isoTime()}","level":"${level}","msg":${logValue(message)}`;

/** One line in the chosen format, with no raw newline or control character (but a pretty stack's own line breaks). */
export function formatLine(level: LogLevel, message: string, fields: LogFields = {}): string {
  if (format !== "json") return prettyLine(level, message, fields);
  const members = JSON.stringify(fields);
  return escapeControlCharacters(
    members === "{}" ? `${jsonHead(level, message)}}` : `${jsonHead(level, message)},${members.slice(1)}`,
  );
}

/** Writes one log line. */
export function log(level: LogLevel, message: string, fields: LogFields = {}): void {
  writers ??= openWriters();
  writers[level](formatLine(level, message, fields));
}

/**
 * One info line of fields the caller wrote as JSON members, each value a number or from `logValue`: for a line per request,
 * with no object to serialize, and only short values to escape (scanning the line was half the cost of writing it).
 * @example logInfoMembers("request", `"status":${status},"method":${logValue(method)}`)
 */
export function logInfoMembers(message: string, members: string): void {
  writers ??= openWriters();
  writers.info(
    format === "json"
      ? `${jsonHead("info", message)},${members}}`
      : prettyLine("info", message, JSON.parse(`{${members}}`)),
  );
}

/** Printable ASCII but `"` and `\`: what JSON writes as it is and nothing needs escaping in (a loop: a regular expression costs more here). */
function isPlainAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return false;
  }
  return true;
}

/**
 * A value for `logInfoMembers`: its JSON, every control character escaped; the common plain string with neither
 * JSON.stringify nor a scan.
 * @example logInfoMembers("request", `"status":${status},"method":${logValue(method)}`);
 */
export const logValue = (value: unknown): string =>
  typeof value === "string" && isPlainAscii(value)
    ? `"${value}"`
    : escapeControlCharacters(JSON.stringify(value) ?? "null");

/**
 * Writes an info line: something the operator may like to know, such as what a feature turned on at start-up.
 * @example logInfo(`rate limit: ${limit} requests per ${windowMs} ms per caller`);
 */
export const logInfo = (message: string, fields?: LogFields): void => log("info", message, fields);
/**
 * Writes a warning line: something refused or lost that the operator may need to know about.
 * @example logWarning(`answer rejected: ${reason}`);
 */
export const logWarning = (message: string, fields?: LogFields): void => log("warn", message, fields);
/**
 * Writes an error line, with the error's name, message and stack when one is given.
 * @example refresh(feedId).catch((error) => logError(`feed ${feedId}: the refresh could not finish`, error));
 */
export const logError = (message: string, error?: unknown): void =>
  log("error", message, error === undefined ? {} : { error: errorFields(error) });

/**
 * Logs `error` under a fresh reference and returns the reference, to quote in what the client sees.
 * @example
 * const reference = logWithReference(`tool "${name}" threw`, error);
 * return toolErrorResult(`The tool "${name}" failed unexpectedly (reference ${reference}).`);
 */
export function logWithReference(context: string, error: unknown): string {
  const reference = crypto.randomUUID();
  log("error", `${context} (reference ${reference})`, { reference, error: errorFields(error) });
  return reference;
}
