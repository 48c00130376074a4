/**
 * `#mcp-platform` on Node (Node itself, the dev server, Vercel's Node runtime): the connection's address and scheme, the body
 * read from the socket, deadlines on one timer, `node:crypto`'s cipher, lines batched onto stdout and stderr.
 */
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync } from "node:crypto";
import type { H3Event } from "h3";
import type { LogLevel } from "../log";
import { randomBytes } from "../internal/random";
import type { StateCipher } from "../state/cipher";

export { readBodyText, setDeadline } from "../http/body";

type Write = (line: string) => void;

/** A sealed state's bytes: the IV, the ciphertext, the tag. */
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** `node:crypto`'s state cipher: synchronous, and byte for byte Web Crypto's (as state-codec.test.ts checks). */
export const stateCipher: StateCipher = {
  hkdf: (secret, salt, info, length) => new Uint8Array(hkdfSync("sha256", secret, salt, info, length)),
  aesGcmKey(raw) {
    const key = createSecretKey(raw);
    // A 128-bit tag, fixed in the cipher too, not only by where `open` cuts it: no shorter tag is ever checked.
    const options = { authTagLength: TAG_BYTES };
    return {
      seal(additionalData, plaintext) {
        const iv = randomBytes(IV_BYTES);
        const cipher = createCipheriv("aes-256-gcm", key, iv, options).setAAD(Buffer.from(additionalData));
        const sealed = [iv, cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()];
        return Buffer.concat(sealed).toString("base64url");
      },
      open(sealed, additionalData) {
        const bytes = Buffer.from(sealed, "base64url");
        // Buffer skips what is not base64url: only the one spelling `seal` gives opens.
        if (bytes.length < IV_BYTES + TAG_BYTES || bytes.toString("base64url") !== sealed) throw new Error("malformed");
        const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES), options);
        decipher.setAAD(Buffer.from(additionalData)).setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        const plaintext = decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES));
        // GCM deciphers every byte in `update`: `final` only verifies the tag (and throws when it does not).
        decipher.final();
        return plaintext.toString();
      },
    };
  },
};

/** The address the connection came from (undefined on a connection that has none). */
export const peerAddress = (event: H3Event): string | undefined => event.node.req.socket?.remoteAddress;

/** The scheme of the connection the request came on. */
export const peerScheme = (event: H3Event): "http" | "https" =>
  (event.node.req.socket as { encrypted?: boolean } | undefined)?.encrypted ? "https" : "http";

/**
 * Where lines go. On Node, lines leave in batches (`batched`); a runtime without the process's streams gets one console
 * call per line. `warningLine` formats the writers' own warnings (a stream failed, lines were dropped).
 */
export function openLineWriters(warningLine: (message: string) => string): Record<LogLevel, Write> {
  const stdio: Partial<Pick<NodeJS.Process, "stdout" | "stderr">> | undefined = globalThis.process;
  if (typeof stdio?.stdout?.write !== "function" || typeof stdio.stderr?.write !== "function") {
    const toConsole = (level: LogLevel) => (line: string) => console[level](line);
    return { debug: toConsole("debug"), info: toConsole("info"), warn: toConsole("warn"), error: toConsole("error") };
  }
  const about = (name: string) => (problem: string) => warningLine(`${name} ${problem}`);
  const out = batched(stdio.stdout, about("stdout"), (line) => err(line));
  const err = batched(stdio.stderr, about("stderr"), out);
  return { debug: out, info: out, warn: err, error: err };
}

/**
 * A line waits at most FLUSH_AFTER_MS, a batch grows to at most FLUSH_AT_BYTES: under load, one write per few dozen
 * requests (an immediate and a write per event-loop turn cost a sixth of the throughput, a write per line a third).
 * A Vercel function may be frozen once its response is sent, so there the lines of a turn leave at its end.
 */
const FLUSH_AFTER_MS = 50;
const FLUSH_AT_BYTES = 16 * 1024;
/**
 * What a stream may hold unwritten while its reader falls behind (a paused pipe, a stalled log shipper): Node keeps a pipe's
 * unwritten bytes in memory, so past this bound batches are dropped, counted, and the count written once the reader catches up.
 */
const MAX_UNWRITTEN_BYTES = 1024 * 1024;
const onVercel = import.meta.preset === "vercel";
const later = (flush: () => void): unknown =>
  onVercel ? setImmediate(flush) : setTimeout(flush, FLUSH_AFTER_MS).unref();
const cancel = (timer: unknown): void =>
  onVercel ? clearImmediate(timer as NodeJS.Immediate) : clearTimeout(timer as NodeJS.Timeout);

/**
 * A writer that batches lines into one write, drops batches while `stream` holds too much unwritten, and drops every line once
 * `stream` has failed (EPIPE when the reader went away, ENOSPC…), which it reports `elsewhere` (the other stream). Its error
 * listener keeps a failed write from becoming an uncaught exception, which Nitro would log with console.error to the same dead
 * stream, failing again, forever; console.* writes (Nitro's own) find it too. What is pending leaves at exit (unless the reader
 * is behind).
 */
function batched(stream: NodeJS.WriteStream, warning: (problem: string) => string, elsewhere: Write): Write {
  let pending = "";
  let dropped = 0;
  let failed = false;
  let timer: unknown;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (failed) return;
    failed = true;
    pending = "";
    elsewhere(warning(`failed (${error.code ?? error.message}): its log lines are dropped from now on`));
  });
  const flush = () => {
    if (timer !== undefined) cancel(timer);
    timer = undefined;
    if (stream.writableLength > MAX_UNWRITTEN_BYTES) {
      // The count is written once the stream has drained, whether more lines come or not (one listener at most).
      if (!dropped) stream.off("drain", flush).once("drain", flush);
      dropped += pending.split("\n").length - 1;
    } else if ((pending || dropped) && !failed) {
      stream.write(dropped ? `${warning(`fell behind: ${dropped} log lines were dropped`)}\n${pending}` : pending);
      dropped = 0;
    }
    pending = "";
  };
  process.once("exit", flush);
  return (line) => {
    if (failed) return;
    pending += `${line}\n`;
    if (pending.length >= FLUSH_AT_BYTES) flush();
    else timer ??= later(flush);
  };
}
