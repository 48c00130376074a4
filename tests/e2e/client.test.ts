/**
 * `npm run client` (server/dev/client.mjs), the real program against the fixture build: in a real
 * pseudo-terminal (tmux) as a person uses it, and as a script runs it (pipes, exit codes, --curl).
 * Only test fixtures are used, so this file stays in a fork without the examples.
 */
import { execFile, spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readCounter, uniqueKey } from "../helpers/flows";
import { needs, programPath } from "../helpers/programs.mjs";
import { startServer, type RunningServer } from "../helpers/server.mjs";
import { openTerminal, type Terminal } from "../helpers/terminal.mjs";

const CLIENT = "server/dev/client.mjs";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/** The interactive client in a terminal, at its first menu prompt; closed (whatever happens) after `use`. */
async function interactively(use: (terminal: Terminal) => Promise<void>): Promise<void> {
  const terminal = openTerminal([process.execPath, CLIENT, "--url", server.url]);
  try {
    await terminal.waitFor("Pick a number or name");
    await use(terminal);
    terminal.type("q");
    expect(await terminal.waitForExit()).toBe(0);
  } finally {
    terminal.close();
  }
}

/** Waits for the question `prompt`, then types `answerText`. */
async function answer(terminal: Terminal, prompt: string, answerText: string): Promise<void> {
  await terminal.waitFor(prompt);
  terminal.type(answerText);
}

/** Runs the client as a script does: output through pipes, the exit code at the end. */
function runClient(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLIENT, "--url", server.url, ...args], (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

describe("interactive, in a terminal", needs("tmux"), () => {
  it("lists what the server offers, with descriptions", async () => {
    await interactively(async (terminal) => {
      const menu = terminal.transcript();
      expect(menu).toMatch(/Tools\n/);
      expect(menu).toMatch(/\d+ {2}confirm_increment +Asks for confirmation, then increments the counter/);
      expect(menu).toMatch(/Prompts\n[\s\S]*\d+ {2}draft +Drafts a text about a subject/);
      expect(menu).toMatch(/Resources\n[\s\S]*\d+ {2}fixture:\/\/about +fixture-about: Static text/);
      expect(menu).toMatch(/Resource templates\n[\s\S]*\d+ {2}fixture:\/\/items\/\{id\}/);
    });
  });

  it("confirm_increment: asks the form's field, re-asks an invalid answer, and acts on yes", async () => {
    const key = uniqueKey();
    await interactively(async (terminal) => {
      terminal.type("confirm_increment");
      await answer(terminal, "key (string, required)", key);
      await terminal.waitFor(`? Increment counter ${key}?`);
      await answer(terminal, "Fill in the form (Enter), d: decline, c: cancel:", "");
      await answer(terminal, "confirm (boolean: y/n, required) Increment the counter:", "maybe");
      await answer(terminal, "y or n expected", "y");
      await terminal.waitFor(`Counter ${key} is now 1.`);
      await terminal.waitFor("Pick a number or name");
    });
    expect(await readCounter(server.url, key)).toBe(1);
  });

  it("confirm_increment: declining is an answer, and nothing is incremented", async () => {
    const key = uniqueKey();
    await interactively(async (terminal) => {
      terminal.type("confirm_increment");
      await answer(terminal, "key (string, required)", key);
      await answer(terminal, "Fill in the form (Enter), d: decline, c: cancel:", "d");
      await terminal.waitFor(`Counter ${key} unchanged: decline.`);
      await terminal.waitFor("Pick a number or name");
    });
    expect(await readCounter(server.url, key)).toBe(0);
  });

  it.each([
    ["", "accept"],
    ["d", "decline"],
  ])("open_link (URL mode): prints the link and waits; %j answers %s", async (typed, action) => {
    await interactively(async (terminal) => {
      terminal.type("open_link");
      await terminal.waitFor("? Open this page to continue.");
      await terminal.waitFor("Open: https://example.test/step");
      await answer(terminal, "Press Enter once you have opened it, d: decline, c: cancel:", typed);
      await terminal.waitFor(`You chose ${action}.`);
      await terminal.waitFor("Pick a number or name");
    });
  });

  it("three_questions: three rounds, a choice by its number, an integer re-asked until it fits", async () => {
    await interactively(async (terminal) => {
      terminal.type("three_questions");
      await answer(terminal, "Fill in the form", "");
      await answer(terminal, "word (string, required):", "Bo");
      await terminal.waitFor("? Question 2: a colour for Bo?");
      await answer(terminal, "Fill in the form", "");
      await terminal.waitFor("1) red  2) green  3) blue");
      await answer(terminal, "color (one of 3, required):", "2");
      await terminal.waitFor("? Question 3: a size?");
      await answer(terminal, "Fill in the form", "");
      await answer(terminal, "size (integer 1–10, required):", "11");
      await answer(terminal, "at most 10", "4");
      await terminal.waitFor("Bo, green, 4.");
      await terminal.waitFor("Pick a number or name");
    });
  });

  it("ask_model_and_roots: the person writes the model's reply, and shares the current directory as a root", async () => {
    await interactively(async (terminal) => {
      terminal.type("ask_model_and_roots");
      await terminal.waitFor("user: Say one word.");
      await answer(terminal, "Reply:", "marmalade");
      await answer(terminal, "Share the current directory, file://", "");
      await terminal.waitFor(`The model said marmalade; roots: file://${process.cwd()}`);
      await terminal.waitFor("Pick a number or name");
    });
  });

  it("progress_steps: arguments with defaults, a progress bar and the log messages", async () => {
    await interactively(async (terminal) => {
      terminal.type("progress_steps");
      await answer(terminal, "steps (integer 1–100) [3]:", "4");
      await answer(terminal, "delay_ms (integer 0–10000) [10]:", "");
      await terminal.waitFor('[debug] {"step":3}');
      await terminal.waitFor(/\[█{24}\] 4\/4 done\ndone\n/);
      await terminal.waitFor("Pick a number or name");
    });
  });

  it("Ctrl-C cancels the running request, and the client leaves", async () => {
    const terminal = openTerminal([process.execPath, CLIENT, "--url", server.url]);
    try {
      await answer(terminal, "Pick a number or name", "progress_steps");
      await answer(terminal, "steps (integer 1–100) [3]:", "37");
      await answer(terminal, "delay_ms (integer 0–10000) [10]:", "200");
      await terminal.waitFor("2/37");
      terminal.press("C-c");
      await terminal.waitFor("Interrupted (Ctrl-C).");
      expect(await terminal.waitForExit()).toBe(0);
    } finally {
      terminal.close();
    }
    await vi.waitFor(() => expect(server.logs()).toMatch(/progress_steps cancelled during step \d+ of 37/));
  });
});

describe("non-interactive, for scripts", () => {
  it("call with --answer: the form is answered up front, exit code 0, no colour in a pipe", async () => {
    const key = uniqueKey();
    const { code, stdout, stderr } = await runClient([
      "call",
      "confirm_increment",
      `key=${key}`,
      "--answer",
      "confirm=true",
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toContain(`? Increment counter ${key}? → confirm=true (--answer)`);
    expect(stdout).toContain(`Counter ${key} is now 1.`);
    expect(stdout).not.toContain("\x1b[");
    expect(await readCounter(server.url, key)).toBe(1);
  });

  it("a question nothing answers fails the command, naming the question; nothing is done", async () => {
    const key = uniqueKey();
    const { code, stderr } = await runClient(["call", "confirm_increment", `key=${key}`]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `The server asks a question this command does not answer:\n? Increment counter ${key}?\n  field "confirm" (boolean: y/n)\n`,
    );
    expect(stderr).toContain("Answer it with --answer confirm=<boolean: y/n>, pass --decline or --cancel");
    expect(await readCounter(server.url, key)).toBe(0);
  });

  it("--decline answers what --answer does not cover, round after round", async () => {
    const { code, stdout } = await runClient(["call", "three_questions", "--answer", "word=Bo", "--decline"]);
    expect(code).toBe(0);
    expect(stdout).toContain("? Question 2: a colour for Bo? → decline (--decline)");
    expect(stdout).toContain("Stopped at question 2: decline.");
  });

  it("a tool result with isError exits with 1", async () => {
    const { code, stdout } = await runClient(["call", "fails_unexpectedly"]);
    expect(code).toBe(1);
    expect(stdout).toContain('The tool "fails_unexpectedly" failed unexpectedly');
  });

  it("list, get and read", async () => {
    const list = await runClient(["list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/progress_steps +Reports progress/);
    const prompt = await runClient(["get", "draft", "subject=tea", "style=haiku"]);
    expect(prompt.stdout).toContain("user: Write about tea as haiku.");
    const resource = await runClient(["read", "fixture://items/12"]);
    expect(resource.stdout).toContain("fixture://items/12 (text/plain)\ntwelve\n");
  });

  it(
    "--curl prints every request as a curl command; run again with bash, they reproduce the calls",
    needs("curl"),
    async () => {
      const answers = ["--answer", "word=it's", "--answer", "color=red", "--answer", "size=4"];
      const { code, stdout, stderr: commands } = await runClient(["--curl", "call", "three_questions", ...answers]);
      expect(code).toBe(0);
      expect(stdout).toContain("it's, red, 4.");

      const calls = commands.split(/\n(?=# )/).filter((command) => command.includes("'mcp-name: three_questions'"));
      expect(calls).toHaveLength(4);
      for (const call of calls) {
        expect(call).toContain(`curl -sS -w '\\n' '${server.url}'`);
        expect(call).toContain("-H 'mcp-protocol-version: 2026-07-28'");
        expect(call).toContain("-H 'mcp-method: tools/call'");
      }
      expect(calls[0]).not.toContain("requestState");
      // Round two: the first answer, and the state sealed by round one, as sent.
      expect(calls[1]).toMatch(
        /"inputResponses":\{"word":\{"action":"accept","content":\{"word":"it'\\''s"\}\}\},"requestState":"v1\.[\w.-]+"/,
      );

      programPath("curl"); // under CI, a missing curl fails here, saying how to install it
      const replay = spawnSync("bash", [], { input: commands, encoding: "utf8" });
      expect(replay.status).toBe(0);
      const responses = replay.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(responses.slice(-4).map((response) => response.result.resultType)).toEqual([
        "input_required",
        "input_required",
        "input_required",
        "complete",
      ]);
      expect(responses.at(-3).result.inputRequests.color.params.message).toBe("Question 2: a colour for it's?");
      expect(responses.at(-1).result.content).toEqual([{ type: "text", text: "it's, red, 4." }]);
    },
  );
});
