/**
 * Asks the person for the properties of an object schema, one line each: a tool's arguments,
 * a prompt's arguments, a resource template's variables, an elicitation form's fields.
 * Each question shows the type (choices listed by number), marks required fields and shows the
 * default, which an empty answer takes; a value that does not parse is asked again. The schema
 * is the server's: its names, descriptions, choices and defaults are shown escaped.
 */
import { safeText } from "./safe-text.mjs";
import { choicesOf, describeType, parseFieldValue } from "./schema-values.mjs";

/**
 * @param {string} name
 * @param {import("./schema-values.mjs").JsonSchema} schema
 * @param {boolean} required
 * @param {import("./output.mjs").Styler} style
 */
function questionFor(name, schema, required, style) {
  const about = safeText([describeType(schema), ...(required ? ["required"] : [])].join(", "));
  const description = schema.description ? ` ${safeText(schema.description)}` : "";
  const shown = typeof schema.default === "string" ? schema.default : JSON.stringify(schema.default);
  const fallback = schema.default !== undefined ? ` [${safeText(shown)}]` : "";
  return `${style("bold", safeText(name))} ${style("dim", `(${about})`)}${description}${style("cyan", fallback)}: `;
}

/**
 * Asks for one field until the answer parses; `undefined` when an optional field is left empty.
 * @param {import("./questions.mjs").Questions} questions
 * @param {import("./output.mjs").Output} output
 * @param {string} name
 * @param {import("./schema-values.mjs").JsonSchema} schema
 * @param {boolean} required
 */
async function askField(questions, output, name, schema, required) {
  const choices = choicesOf(schema) ?? (schema.items && choicesOf(schema.items));
  if (choices)
    output.line(
      `  ${choices.map((choice, i) => `${output.style("cyan", `${i + 1})`)} ${safeText(choice.label)}`).join("  ")}`,
    );
  for (;;) {
    const text = await questions.ask(questionFor(name, schema, required, output.style));
    if (text === "") {
      if (schema.default !== undefined) return schema.default;
      if (!required) return undefined;
      output.line(output.style("yellow", `  ${safeText(name)} is required`));
      continue;
    }
    const parsed = parseFieldValue(schema, text);
    if (parsed.ok) return parsed.value;
    output.line(output.style("yellow", `  ${safeText(parsed.problem)}`));
  }
}

/**
 * The values of `schema`'s properties, asked in order; fields left empty without a default are omitted.
 * @param {import("./questions.mjs").Questions} questions
 * @param {import("./output.mjs").Output} output
 * @param {import("./schema-values.mjs").ObjectSchema} schema
 * @returns {Promise<Record<string, unknown>>}
 */
export async function askForValues(questions, output, schema) {
  const required = new Set(schema.required ?? []);
  /** @type {Record<string, unknown>} */
  const values = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const value = await askField(questions, output, name, property, required.has(name));
    if (value !== undefined) values[name] = value;
  }
  return values;
}
