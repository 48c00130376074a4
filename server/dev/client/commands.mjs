/**
 * The non-interactive commands, for scripts and docs: `list`, `call <tool> k=v…`,
 * `get <prompt> k=v…`, `read <uri>`. Arguments are typed by the tool's input schema
 * (`note_id=7` stays a string where the schema says string, `steps=3` becomes a number);
 * the server's questions are answered by the command line (scripted-answers.mjs).
 */
import { loadCatalog, requestFor } from "./catalog.mjs";
import { invoke } from "./invoke.mjs";
import { renderCatalog } from "./render.mjs";
import { valuesFromPairs } from "./schema-values.mjs";

const COMMANDS = ["list", "call", "get", "read"];

/**
 * Checks a command line before anything is sent: a known command, with the target it needs.
 * @param {string[]} words
 */
export function checkCommand([command, target]) {
  if (!COMMANDS.includes(command ?? ""))
    throw new Error(
      `Unknown command "${command}": use one of ${COMMANDS.join(", ")}, or none for the interactive client.`,
    );
  if (command === "call" && !target)
    throw new Error("Which tool? `call <tool> key=value…` (`npm run client -- list` shows them).");
  if (command === "get" && !target)
    throw new Error("Which prompt? `get <prompt> key=value…` (`npm run client -- list` shows them).");
  if (command === "read" && !target) throw new Error("Which resource? `read <uri>`, e.g. `read info://about`.");
}

/**
 * The tool or prompt named `name`, from the server's lists.
 * @param {import("@modelcontextprotocol/client").Client} client
 * @param {"tool" | "prompt"} kind
 * @param {string} name
 */
async function findEntry(client, kind, name) {
  const entry = (await loadCatalog(client, [kind])).find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`This server has no ${kind} named "${name}" (\`npm run client -- list\` shows them).`);
  return entry;
}

/**
 * Runs one command (checked by checkCommand).
 * @param {import("@modelcontextprotocol/client").Client} client
 * @param {string[]} words the command and its arguments, e.g. ["call", "delete_note", "note_id=7"]
 * @param {{ output: import("./output.mjs").Output, logLevel: import("@modelcontextprotocol/client").LoggingLevel }} options
 * @returns {Promise<boolean>} whether it succeeded (false when the tool result has isError)
 */
export async function runCommand(client, [command, target, ...pairs], options) {
  switch (command) {
    case "list":
      renderCatalog(await loadCatalog(client), options.output);
      return true;
    case "call":
    case "get": {
      const entry = await findEntry(client, command === "call" ? "tool" : "prompt", String(target));
      const values = valuesFromPairs(pairs, entry.inputSchema, `${entry.kind} "${entry.name}"`);
      return invoke(client, requestFor(entry, values), options);
    }
    default: // "read"
      return invoke(client, { method: "resources/read", uri: String(target) }, options);
  }
}
