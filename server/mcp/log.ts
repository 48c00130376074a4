/**
 * The operator's log: one JSON object per line (`time`, `level`, `msg`, and fields), which log
 * pipelines, Workers Logs and Vercel's log drains read as they are; in `npm run dev`, readable text
 * instead (`NITRO_MCP_LOG_FORMAT` overrides either). What went wrong and why goes here, for the
 * operator only: clients get a reference at most. Never log a secret, a token or a sealed state.
 */

export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Readonly<Record<string, unknown>>;

let format: "json" | "pretty" = import.meta.dev ? "pretty" : "json";

/** Set once at start-up from `NITRO_MCP_LOG_FORMAT` (see `plugins/observability.ts`). */
export function setLogFormat(chosen: "json" | "pretty" | "auto"): void {
  format = chosen === "auto" ? (import.meta.dev ? "pretty" : "json") : chosen;
}

/** An error as plain fields: its stack is for the operator (clients never see it). */
export const errorFields = (error: unknown): LogFields =>
  error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { message: String(error) };

type Write = (line: string) => void;

/**
 * Where lines go. On Node, the lines of one turn of the event loop leave in one write per stream
 * (a write per request line cost a third of the throughput); on Workers, where Workers Logs reads
 * each console call as one entry, every line is its own call.
 */
function lineWriters(): Record<LogLevel, Write> {
  const stdio = (globalThis as { process?: { stdout?: NodeJS.WriteStream; stderr?: NodeJS.WriteStream; once?: NodeJS.Process["once"] } }).process;
  const onWorkers = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === "Cloudflare-Workers";
  if (onWorkers || typeof stdio?.stdout?.write !== "function" || typeof stdio.stderr?.write !== "function") {
    return { debug: (line) => console.debug(line), info: (line) => console.info(line), warn: (line) => console.warn(line), error: (line) => console.error(line) };
  }
  const batched = (stream: NodeJS.WriteStream): Write => {
    let pending = "";
    const flush = () => {
      if (pending) stream.write(pending);
      pending = "";
    };
    stdio.once?.("exit", flush);
    return (line) => {
      if (!pending) setImmediate(flush);
      pending += `${line}\n`;
    };
  };
  const out = batched(stdio.stdout);
  const err = batched(stdio.stderr);
  return { debug: out, info: out, warn: err, error: err };
}

let writers: Record<LogLevel, Write> | undefined;

function prettyLine(level: LogLevel, message: string, fields: LogFields): string {
  const { error, ...rest } = fields as { error?: { stack?: string; message?: string } };
  const details = Object.entries(rest).map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  const head = `[mcp] ${level === "info" ? "" : `${level}: `}${message}${details.length ? `  ${details.join(" ")}` : ""}`;
  return error ? `${head}\n${error.stack ?? error.message}` : head;
}

/** Writes one log line. */
export function log(level: LogLevel, message: string, fields: LogFields = {}): void {
  writers ??= lineWriters();
  writers[level](
    format === "json" ? JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields }) : prettyLine(level, message, fields),
  );
}

export const logInfo = (message: string, fields?: LogFields): void => log("info", message, fields);
export const logWarning = (message: string, fields?: LogFields): void => log("warn", message, fields);
export const logError = (message: string, error?: unknown): void =>
  log("error", message, error === undefined ? {} : { error: errorFields(error) });

/** Logs `error` under a fresh reference and returns the reference, to quote in what the client sees. */
export function logWithReference(context: string, error: unknown): string {
  const reference = crypto.randomUUID();
  log("error", `${context} (reference ${reference})`, { reference, error: errorFields(error) });
  return reference;
}
