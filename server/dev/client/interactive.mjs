/**
 * The interactive client: the server's tools, prompts and resources as a numbered menu; pick one,
 * answer its arguments, see the result (and answer whatever the server asks on the way), pick
 * again, or quit.
 */
import { loadCatalog, requestFor } from "./catalog.mjs";
import { PROTOCOL_VERSION } from "./connect.mjs";
import { invoke } from "./invoke.mjs";
import { InputClosedError } from "./questions.mjs";
import { describeFailure, renderCatalog } from "./render.mjs";
import { safeLines, safeText } from "./safe-text.mjs";
import { askForValues } from "./schema-prompts.mjs";

/**
 * @typedef {object} InteractiveOptions
 * @property {string} url
 * @property {import("./questions.mjs").Questions} questions
 * @property {import("./output.mjs").Output} output
 * @property {import("@modelcontextprotocol/client").LoggingLevel} logLevel
 */

/**
 * The menu, until the person quits with q.
 * @param {import("@modelcontextprotocol/client").Client} client
 * @param {InteractiveOptions} options
 */
async function menu(client, { url, questions, output, logLevel }) {
  const { style } = output;
  let entries = await loadCatalog(client);
  renderCatalog(entries, output);
  for (;;) {
    output.line();
    const choice = await questions.ask(`${style("bold", "Pick a number or name")} (Enter: the list again, q: quit): `);
    if (choice === "q" || choice === "quit") return;
    if (choice === "") {
      entries = await loadCatalog(client);
      renderCatalog(entries, output);
      continue;
    }
    const entry = /^\d+$/.test(choice)
      ? entries[Number(choice) - 1]
      : entries.find((candidate) => candidate.name === choice);
    if (!entry) {
      output.line(style("yellow", `Nothing is listed as ${JSON.stringify(choice)}.`));
      continue;
    }
    output.line(`${style("bold", safeText(entry.name))} ${style("dim", `(${entry.kind})`)}`);
    try {
      const values = await askForValues(questions, output, entry.inputSchema);
      await invoke(client, requestFor(entry, values), { output, logLevel, signal: questions.interrupted });
    } catch (error) {
      if (questions.interrupted.aborted) {
        output.note("Interrupted (Ctrl-C).");
        throw new InputClosedError();
      }
      if (error instanceof InputClosedError) throw error;
      output.error(describeFailure(error, url));
    }
  }
}

/**
 * Runs until the person quits: q at the menu, or Ctrl-D / Ctrl-C at any question.
 * @param {import("@modelcontextprotocol/client").Client} client
 * @param {InteractiveOptions} options
 */
export async function runInteractive(client, options) {
  const { url, output } = options;
  const server = client.getServerVersion();
  output.line(
    `Connected to ${output.style("bold", server ? safeText(`${server.name} ${server.version}`) : "the server")} at ${safeText(url)} (protocol ${PROTOCOL_VERSION})`,
  );
  const instructions = client.getInstructions();
  if (instructions) output.note(safeLines(instructions));
  output.line();
  try {
    await menu(client, options);
  } catch (error) {
    if (!(error instanceof InputClosedError)) throw error;
    output.line(); // the cursor was still after a question
  }
}
