/**
 * `npm run client` with the shipped examples (the product build), in a real terminal (tmux):
 * the interactive `delete_note` and `wizard` flows, and the README's non-interactive command.
 * Deleting a note changes the server's data, so each test starts a server of its own.
 * A fork that deletes the examples deletes this file with them.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { needs } from "../helpers/programs.mjs";
import { OUTPUT, startServer, type RunningServer } from "../helpers/server.mjs";
import { openTerminal, type Terminal } from "../helpers/terminal.mjs";

let server: RunningServer;
beforeEach(async () => {
  server = await startServer({ output: OUTPUT.product });
});
afterEach(() => server.stop());

/** Runs `use` with a terminal showing `command`, then closes it. */
async function inTerminal(command: string[], use: (terminal: Terminal) => Promise<void>): Promise<void> {
  const terminal = openTerminal(command);
  try {
    await use(terminal);
  } finally {
    terminal.close();
  }
}

/** Waits for the question `prompt`, then types `answerText`. */
async function answer(terminal: Terminal, prompt: string, answerText: string): Promise<void> {
  await terminal.waitFor(prompt);
  terminal.type(answerText);
}

const interactiveClient = () => [process.execPath, "server/dev/client.mjs", "--url", server.url];

it("delete_note, interactively: note 7, confirmed, is deleted", needs("tmux"), async () => {
  await inTerminal(interactiveClient(), async (terminal) => {
    await answer(terminal, "Pick a number or name", "delete_note");
    await answer(terminal, 'note_id (string, required) Id of the note, e.g. "7":', "7");
    await terminal.waitFor('? Delete note 7 ("Groceries")? This cannot be undone.');
    await answer(terminal, "Fill in the form (Enter), d: decline, c: cancel:", "");
    await answer(terminal, "confirm (boolean: y/n, required) Yes, delete this note for good:", "y");
    await terminal.waitFor('Deleted note 7 ("Groceries").');

    await answer(terminal, "Pick a number or name", "list_notes");
    const listed = await terminal.waitFor("#15 Plant care");
    expect(listed).toContain("#12 Conference talk");
    expect(listed).not.toContain("#7 ");

    await answer(terminal, "Pick a number or name", "q");
    expect(await terminal.waitForExit()).toBe(0);
  });
});

it("wizard, interactively: three rounds, one question each", needs("tmux"), async () => {
  await inTerminal(interactiveClient(), async (terminal) => {
    await answer(terminal, "Pick a number or name", "wizard");
    await terminal.waitFor("? Step 1 of 3: what should we call you?");
    await answer(terminal, "Fill in the form", "");
    await answer(terminal, "name (string, required) What should we call you?:", "Ada");
    await terminal.waitFor("? Step 2 of 3: Ada, pick a colour.");
    await answer(terminal, "Fill in the form", "");
    await terminal.waitFor("1) red  2) green  3) blue");
    await answer(terminal, "color (one of 3, required) Pick a colour:", "blue");
    await terminal.waitFor("? Step 3 of 3: how big should it be?");
    await answer(terminal, "Fill in the form", "");
    await answer(terminal, "size (integer 1–10, required) From 1 (tiny) to 10 (huge):", "7");
    await terminal.waitFor("All set, Ada: a blue one, size 7.");

    await answer(terminal, "Pick a number or name", "q");
    expect(await terminal.waitForExit()).toBe(0);
  });
});

it(
  "the README's command, `npm run client -- call delete_note note_id=7 --answer confirm=true`",
  needs("tmux"),
  async () => {
    const readmeCommand = [
      "npm",
      "run",
      "client",
      "--",
      "call",
      "delete_note",
      "note_id=7",
      "--answer",
      "confirm=true",
      "--url",
      server.url,
    ];
    await inTerminal(readmeCommand, async (terminal) => {
      await terminal.waitFor('? Delete note 7 ("Groceries")? This cannot be undone. → confirm=true (--answer)');
      await terminal.waitFor('Deleted note 7 ("Groceries").');
      expect(await terminal.waitForExit()).toBe(0);
    });
    // Once more: the note is gone, and the tool's error result (isError) is exit code 1.
    await inTerminal(readmeCommand, async (terminal) => {
      await terminal.waitFor("There is no note with id 7. Call list_notes to see the ids.");
      expect(await terminal.waitForExit()).toBe(1);
    });
  },
);
