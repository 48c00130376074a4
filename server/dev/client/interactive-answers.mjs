/**
 * The person answers the server's questions at the terminal: a form field by field (or declines
 * or cancels it), a link to open, a completion to write in the model's place, the roots to share.
 */
import { currentDirectoryRoot } from "./input-handlers.mjs";
import { describeLink, safeLines, safeText } from "./safe-text.mjs";
import { askForValues } from "./schema-prompts.mjs";

/**
 * Asks until the answer is one of `actions` (by its first letter or in full); Enter picks the first.
 * @template {string} Action
 * @param {import("./questions.mjs").Questions} questions
 * @param {import("./output.mjs").Output} output
 * @param {string} prompt
 * @param {Action[]} actions
 * @returns {Promise<Action>}
 */
async function askAction(questions, output, prompt, actions) {
  for (;;) {
    const answer = (await questions.ask(prompt)).toLowerCase();
    const action =
      answer === "" ? actions[0] : actions.find((candidate) => candidate === answer || candidate[0] === answer);
    if (action) return action;
    output.line(
      output.style(
        "yellow",
        `  type one of: ${actions.map((candidate) => candidate[0]).join(", ")} (or press Enter to ${actions[0]})`,
      ),
    );
  }
}

/** A sampling message's content as text (safe to print); other content by its type. */
function contentText(/** @type {{ type: string, text?: string }} */ content) {
  return content.type === "text" ? safeLines(content.text ?? "") : `[${safeText(content.type)}]`;
}

/**
 * @param {import("./questions.mjs").Questions} questions
 * @param {import("./output.mjs").Output} output
 * @returns {import("./input-handlers.mjs").Answerer}
 */
export function interactiveAnswerer(questions, output) {
  const { style } = output;
  /** A question starts below the progress bar, never above it. `text` is safe to print. */
  const heading = (/** @type {string} */ text) => {
    output.endProgress();
    output.line(`${style("cyan", "?")} ${style("bold", text)}`);
  };

  return {
    async form(params) {
      heading(safeText(params.message));
      const action = await askAction(
        questions,
        output,
        `Fill in the form (Enter), ${style("bold", "d")}: decline, ${style("bold", "c")}: cancel: `,
        ["accept", "decline", "cancel"],
      );
      if (action !== "accept") return { action };
      // The form's fields are exactly what askForValues asks for; the cast only bridges the SDK's narrower schema type.
      const content = await askForValues(
        questions,
        output,
        /** @type {import("./schema-values.mjs").ObjectSchema} */ (params.requestedSchema),
      );
      return { action, content: /** @type {Record<string, string | number | boolean | string[]>} */ (content) };
    },

    // A link that is not http(s) (javascript:, file:, data:…) is shown as such and never offered to open.
    async url(params) {
      heading(safeText(params.message));
      const link = describeLink(params.url);
      if (!link.opens) {
        output.line(style("yellow", `  Not offered: ${link.shown}`));
        return {
          action: await askAction(questions, output, `Enter: decline, ${style("bold", "c")}: cancel: `, [
            "decline",
            "cancel",
          ]),
        };
      }
      output.line(`  Open: ${style("cyan", link.shown)}`);
      const action = await askAction(
        questions,
        output,
        `Press Enter once you have opened it, ${style("bold", "d")}: decline, ${style("bold", "c")}: cancel: `,
        ["accept", "decline", "cancel"],
      );
      return { action };
    },

    async sampling(params) {
      heading("The server asks for a model completion (sampling). You write the model's reply.");
      if (params.systemPrompt) output.line(`  ${style("dim", "system:")} ${safeLines(params.systemPrompt)}`);
      for (const message of params.messages) {
        const parts = Array.isArray(message.content) ? message.content : [message.content];
        output.line(`  ${style("dim", `${safeText(message.role)}:`)} ${parts.map(contentText).join(" ")}`);
      }
      output.line(style("dim", `  (at most ${safeText(params.maxTokens)} tokens)`));
      let text = "";
      while (!text) text = await questions.ask(`${style("bold", "Reply")}: `);
      return {
        model: "person-at-the-terminal",
        role: "assistant",
        content: { type: "text", text },
        stopReason: "endTurn",
      };
    },

    async roots() {
      const root = currentDirectoryRoot();
      heading("The server asks for your roots (the folders it may work in).");
      const share = await askAction(
        questions,
        output,
        `Share the current directory, ${style("cyan", root.uri)}? (Enter: yes, ${style("bold", "n")}: no): `,
        ["yes", "no"],
      );
      return { roots: share === "yes" ? [root] : [] };
    },
  };
}
