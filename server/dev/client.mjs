#!/usr/bin/env node
/**
 * `npm run client`: a terminal MCP client for development, on the official client
 * (`@modelcontextprotocol/client`) pinned to protocol revision 2026-07-28. The modules it is
 * made of are in server/dev/client/; this file reads the command line and runs one of them.
 */
import { parseArgs } from "node:util";
import { checkCommand, runCommand } from "./client/commands.mjs";
import { connect } from "./client/connect.mjs";
import { interactiveAnswerer } from "./client/interactive-answers.mjs";
import { runInteractive } from "./client/interactive.mjs";
import { createOutput, routeConsole } from "./client/output.mjs";
import { createQuestions } from "./client/questions.mjs";
import { describeFailure } from "./client/render.mjs";
import { scriptedAnswerer } from "./client/scripted-answers.mjs";

const USAGE = `Usage: npm run client -- [command] [options]

  (no command)                 interactive: pick a tool, prompt or resource, answer its arguments
                               and whatever the server asks, see the result
  list                         the tools, prompts, resources and resource templates
  call <tool> [key=value…]     call a tool (values typed by its input schema)
  get <prompt> [key=value…]    get a prompt
  read <uri>                   read a resource

Options:
  --url <url>          the MCP endpoint (default: http://127.0.0.1:3000/mcp, what \`npm run dev\` serves)
  --token <token>      sent as Authorization: Bearer <token>
  --curl               print every HTTP request as a curl command, on stderr
  --answer <key=value> for call/get/read: fills the form field <key> of any form the server asks (repeatable)
  --decline, --cancel  for call/get/read: the answer to any question --answer does not cover
                       (without either, such a question fails the command, naming it)
  --log-level <level>  the server's log messages from this level up (default: debug)
  -h, --help           this help

Exit code: 0 on success, 1 when the tool result has isError or on an error.`;

const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/**
 * The command line, checked: a mistake is reported before anything is sent.
 * @param {string[]} args
 */
function readCommandLine(args) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      url: { type: "string", default: "http://127.0.0.1:3000/mcp" },
      token: { type: "string" },
      curl: { type: "boolean", default: false },
      answer: { type: "string", multiple: true, default: [] },
      decline: { type: "boolean", default: false },
      cancel: { type: "boolean", default: false },
      "log-level": { type: "string", default: "debug" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (positionals.length) checkCommand(positionals);
  else if (values.answer.length || values.decline || values.cancel) {
    throw new Error(
      "--answer, --decline and --cancel answer for a command (call, get, read); the interactive client asks you.",
    );
  }
  if (values.decline && values.cancel) throw new Error("Pass --decline or --cancel, not both.");
  const logLevel = values["log-level"];
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`--log-level must be one of ${LOG_LEVELS.join(", ")}.`);
  const answers = new Map(
    values.answer.map((pair) => {
      const at = pair.indexOf("=");
      if (at < 1) throw new Error(`--answer ${pair}: expected key=value, e.g. --answer confirm=true.`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
  return {
    ...values,
    logLevel: /** @type {import("@modelcontextprotocol/client").LoggingLevel} */ (logLevel),
    answers,
    otherwise: values.decline
      ? /** @type {const} */ ("decline")
      : values.cancel
        ? /** @type {const} */ ("cancel")
        : undefined,
    words: positionals,
  };
}

/** @returns {Promise<number>} the exit code */
async function main() {
  // With --curl, stderr is a script: error lines are written as comments.
  const output = createOutput({ curlScript: process.argv.includes("--curl") });
  // What libraries print, and a failure nothing caught (never a raw stack), go through it too: their text may hold a server's words.
  routeConsole(output);
  const fail = (/** @type {unknown} */ error) => {
    output.error(describeFailure(error, "the server"));
    process.exit(1);
  };
  process.on("uncaughtException", fail).on("unhandledRejection", fail);
  let options;
  try {
    options = readCommandLine(process.argv.slice(2));
  } catch (error) {
    output.error(error instanceof Error ? error.message : String(error));
    output.error("Run `npm run client -- --help` for the usage.");
    return 1;
  }
  if (options.help) {
    output.line(USAGE);
    return 0;
  }

  const { url, token, curl, logLevel, words } = options;
  const questions = words.length ? undefined : createQuestions(output);
  const answerer = questions ? interactiveAnswerer(questions, output) : scriptedAnswerer(options, output);
  /** @type {import("@modelcontextprotocol/client").Client | undefined} */
  let client;
  try {
    client = await connect({ url, token, curl, answerer, output });
    if (!questions) return (await runCommand(client, words, { output, logLevel })) ? 0 : 1;
    await runInteractive(client, { url, questions, output, logLevel });
    return 0;
  } catch (error) {
    output.error(describeFailure(error, url));
    return 1;
  } finally {
    questions?.close();
    await client?.close();
  }
}

process.exitCode = await main();
