/**
 * Answers given up front on the command line, for scripts and docs:
 * `--answer confirm=true` fills the field `confirm` of whatever form the server asks, in any
 * round; `--decline` / `--cancel` answer every question the answers do not cover. Anything
 * else the server asks fails the command with a message naming the question, never a guess.
 */
import { currentDirectoryRoot } from "./input-handlers.mjs";
import { PrintableError, describeLink, safeText } from "./safe-text.mjs";
import { describeType, parseFieldValue } from "./schema-values.mjs";

/**
 * A question nothing on the command line answers, shown as the interactive client shows it,
 * with the way to answer it. Every argument is already safe to print.
 * @param {string} question
 * @param {string} unanswered what is left unanswered, e.g. `field "confirm" (boolean: y/n)`
 * @param {string} [answer] the `--answer` that would answer it, when there is one
 */
const unansweredQuestion = (question, unanswered, answer) =>
  new PrintableError(
    [
      "The server asks a question this command does not answer:",
      `? ${question}`,
      `  ${unanswered}`,
      `${answer ? `Answer it with ${answer}, pass` : "Pass"} --decline or --cancel, or run \`npm run client\` without a command to answer it interactively.`,
    ].join("\n"),
  );

/**
 * @typedef {object} Script
 * @property {Map<string, string>} answers form field → the text given for it
 * @property {"decline" | "cancel"} [otherwise] the answer to a question the answers do not cover
 */

/**
 * @param {Script} script
 * @param {import("./output.mjs").Output} output
 * @returns {import("./input-handlers.mjs").Answerer}
 */
export function scriptedAnswerer({ answers, otherwise }, output) {
  /**
   * Declines or cancels `question` if the command line says so; fails naming it otherwise.
   * The arguments are already safe to print.
   * @param {string} question
   * @param {string} unanswered what nothing answers
   * @param {string} [answer] the `--answer` that would
   * @returns {import("./input-handlers.mjs").ElicitResult}
   */
  const fallBack = (question, unanswered, answer) => {
    if (!otherwise) throw unansweredQuestion(question, unanswered, answer);
    output.note(`? ${question} → ${otherwise} (--${otherwise})`);
    return { action: otherwise };
  };

  return {
    async form(params) {
      const question = safeText(params.message);
      const required = new Set(params.requestedSchema.required ?? []);
      /** @type {Record<string, string | number | boolean | string[]>} */
      const content = {};
      /** @type {[name: string, type: string][]} */
      const missing = [];
      for (const [name, property] of Object.entries(params.requestedSchema.properties)) {
        const text = answers.get(name);
        const schema = /** @type {import("./schema-values.mjs").JsonSchema} */ (property);
        if (text === undefined) {
          if (required.has(name) && property.default === undefined)
            missing.push([safeText(name), safeText(describeType(schema))]);
          continue;
        }
        const parsed = parseFieldValue(schema, text);
        if (!parsed.ok)
          throw new PrintableError(
            `The server asks:\n? ${question}\n--answer ${safeText(name)}=${safeText(text)} does not fit: ${safeText(parsed.problem)}.`,
          );
        content[name] = /** @type {string | number | boolean | string[]} */ (parsed.value);
      }
      if (missing.length) {
        const fields = missing.map(([name, type]) => `field "${name}" (${type})`).join(", ");
        return fallBack(question, fields, missing.map(([name, type]) => `--answer ${name}=<${type}>`).join(" "));
      }
      const given = Object.entries(content).map(([name, value]) => `${name}=${value}`);
      output.note(`? ${question} → ${safeText(given.join(", ")) || "the defaults"} (--answer)`);
      return { action: "accept", content };
    },

    async url(params) {
      return fallBack(safeText(params.message), `a link to open: ${describeLink(params.url).shown}`);
    },

    async sampling(params) {
      const last = params.messages.at(-1)?.content;
      const text = last && !Array.isArray(last) && last.type === "text" ? last.text : `[${last?.type}]`;
      throw new PrintableError(
        `The server asks for a model completion (sampling), which a command cannot write:\n? ${safeText(text)}\nRun \`npm run client\` without a command to write the reply.`,
      );
    },

    // Roots are no question for the person running the command: the directory it runs in, as in the interactive client.
    async roots() {
      const root = currentDirectoryRoot();
      output.note(`? roots → ${root.uri} (the current directory)`);
      return { roots: [root] };
    },
  };
}
