/**
 * A real pseudo-terminal for tests of interactive programs: tmux runs the program in a detached
 * session, and the test types into it and reads the screen as a person would. Each terminal has
 * a tmux server of its own (its own socket and config, in a temporary folder), so terminals run
 * side by side and nothing else on the machine is touched. tmux must be on PATH (programs.mjs:
 * tests that use a terminal declare `needs("tmux")`).
 *
 * @example
 * const terminal = openTerminal(["node", "server/dev/client.mjs", "--url", server.url]);
 * try {
 *   await terminal.waitFor("Pick a number");
 *   terminal.type("delete_note");
 *   await terminal.waitFor("note_id");
 * } finally {
 *   terminal.close();
 * }
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { programPath } from "./programs.mjs";

/** The panes' settings: the finished program's last screen stays readable, no status bar. */
const TMUX_CONFIG = ["set -g remain-on-exit on", "set -g history-limit 20000", "set -g status off"].join("\n");
const POLL_MS = 50;

/** `word` quoted for the shell tmux runs the command with. */
const shellQuote = (/** @type {string} */ word) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * Where `expected` ends in `text`, if it is there.
 * @param {string} text
 * @param {string | RegExp} expected a RegExp without the g flag (exec would keep state between polls)
 */
function find(text, expected) {
  if (typeof expected === "string") {
    const index = text.indexOf(expected);
    return index < 0 ? undefined : { end: index + expected.length };
  }
  const match = expected.exec(text);
  return match ? { end: match.index + match[0].length } : undefined;
}

/**
 * @typedef {object} Terminal
 * @property {(text: string) => void} type types `text` (literally), then Enter
 * @property {(...keys: string[]) => void} press presses keys by their tmux names: "Enter", "C-c", "C-d", "Up"…
 * @property {() => string} transcript everything shown so far, scrollback included, wrapped lines joined
 * @property {(expected: string | RegExp, timeoutMs?: number) => Promise<string>} waitFor
 *   waits until `expected` is shown after the end of the previous match, and resolves with the
 *   transcript from there to the end of this match; on timeout (or if the program ends first),
 *   rejects with the screen in the message
 * @property {(timeoutMs?: number) => Promise<number>} waitForExit resolves with the program's exit status
 * @property {() => void} close ends the program, the session and its tmux server
 */

/**
 * Starts `command` in a new terminal of `width` × `height`.
 * @param {string[]} command the program and its arguments, not interpreted by a shell
 * @param {{ cwd?: string, env?: Record<string, string | undefined>, width?: number, height?: number }} [options]
 * @returns {Terminal}
 */
export function openTerminal(command, { cwd = process.cwd(), env = {}, width = 200, height = 50 } = {}) {
  const tmux = programPath("tmux");
  const folder = mkdtempSync(join(tmpdir(), "terminal-"));
  writeFileSync(join(folder, "tmux.conf"), TMUX_CONFIG);
  const session = `t${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  // The program inherits the environment of the tmux server, started by the first call below.
  const serverEnv = { ...process.env, TMUX: undefined, ...env };
  const run = (/** @type {string[]} */ args) =>
    execFileSync(tmux, ["-S", join(folder, "socket"), "-f", join(folder, "tmux.conf"), ...args], {
      encoding: "utf8",
      env: serverEnv,
    });

  // The exit status comes from a shell that waits for the program and writes it down: tmux's own
  // (#{pane_dead_status}) can stay unknown for seconds, with the program left unreaped.
  const statusFile = join(folder, "status");
  const waitAndRecord = ["sh", "-c", `"$@"; echo "$?" > ${shellQuote(statusFile)}`, "sh", ...command];
  run([
    "new-session",
    "-d",
    "-s",
    session,
    "-x",
    String(width),
    "-y",
    String(height),
    "-c",
    cwd,
    waitAndRecord.map(shellQuote).join(" "),
  ]);

  /** null while the program runs, then its exit status (128 + the signal's number if a signal ended it). */
  const exitStatus = () => {
    const status = existsSync(statusFile) ? readFileSync(statusFile, "utf8").trim() : "";
    return status ? Number(status) : null;
  };
  const transcript = () =>
    run(["capture-pane", "-p", "-J", "-S", "-", "-t", session])
      .split("\n")
      .map((line) => line.trimEnd())
      .join("\n")
      .trimEnd();
  const screenForError = () =>
    `\n----- terminal -----\n${transcript().split("\n").slice(-height).join("\n")}\n--------------------`;

  /** Where the next waitFor starts looking: the end of the previous match. */
  let cursor = 0;

  return {
    type(text) {
      run(["send-keys", "-t", session, "-l", text]);
      run(["send-keys", "-t", session, "Enter"]);
    },
    press: (...keys) => void run(["send-keys", "-t", session, ...keys]),
    transcript,
    async waitFor(expected, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const ended = exitStatus();
        const text = transcript();
        const found = find(text.slice(cursor), expected);
        if (found) {
          const seen = text.slice(cursor, cursor + found.end);
          cursor += found.end;
          return seen;
        }
        if (ended !== null || Date.now() > deadline) {
          const why = ended !== null ? `the program exited with status ${ended}` : `${timeoutMs} ms passed`;
          throw new Error(`Expected ${expected} on the terminal, but ${why}.${screenForError()}`);
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
    async waitForExit(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (let status = exitStatus(); ; status = exitStatus()) {
        if (status !== null) return status;
        if (Date.now() > deadline)
          throw new Error(`The program did not exit within ${timeoutMs} ms.${screenForError()}`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
    close() {
      try {
        run(["kill-server"]);
      } catch {
        // Already gone.
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
