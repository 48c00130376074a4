/**
 * The person's side of the interactive client: one question, one line of input.
 *
 * Lines are queued as they arrive rather than read with `rl.question()`, which drops lines
 * that come before the question is asked: with input piped in (`printf '3\n7\n' | npm run
 * client`), or typed ahead while a call is running, every line still answers the next question.
 */
import { createInterface } from "node:readline";

/** The input ended (Ctrl-D, Ctrl-C or the end of piped input): nothing more can be asked. */
export class InputClosedError extends Error {
  constructor() {
    super("Input closed");
    this.name = "InputClosedError";
  }
}

/**
 * @typedef {object} Questions
 * @property {(prompt: string) => Promise<string>} ask shows `prompt` and resolves with the next line, trimmed
 * @property {AbortSignal} interrupted aborted by Ctrl-C, to cancel the request that is running
 * @property {() => void} close
 */

/**
 * @param {import("./output.mjs").Output} output
 * @returns {Questions}
 */
export function createQuestions(output) {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const interruption = new AbortController();
  /** @type {string[]} */
  const lines = [];
  /** @type {{ resolve: (line: string) => void, reject: (error: Error) => void } | undefined} */
  let waiting;
  let closed = false;

  rl.on("line", (line) => {
    if (!waiting) return void lines.push(line);
    const { resolve } = waiting;
    waiting = undefined;
    resolve(line);
  });
  // Ctrl-C cancels what is running and ends the input; Ctrl-D only ends the input (as piped input ends).
  rl.on("SIGINT", () => {
    interruption.abort();
    rl.close();
  });
  rl.on("close", () => {
    closed = true;
    waiting?.reject(new InputClosedError());
    waiting = undefined;
  });

  return {
    async ask(prompt) {
      output.endProgress();
      // Once closed, readline is left alone (prompting would resume stdin and keep the process alive);
      // lines that came before the end still answer, each shown after its prompt.
      if (closed) {
        const line = lines.shift();
        if (line === undefined) throw new InputClosedError();
        output.line(`${prompt}${line}`);
        return line.trim();
      }
      rl.setPrompt(prompt);
      rl.prompt();
      const line =
        lines.shift() ??
        (await /** @type {Promise<string>} */ (new Promise((resolve, reject) => (waiting = { resolve, reject }))));
      // A terminal echoes what the person types; piped input is shown here, so the transcript reads the same.
      if (!process.stdin.isTTY) output.line(line);
      return line.trim();
    },
    interrupted: interruption.signal,
    close: () => rl.close(),
  };
}
