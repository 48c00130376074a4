/**
 * Values for JSON Schema properties, from text: what the person types at a question, and the
 * `key=value` pairs of the non-interactive commands. The schemas are a tool's `inputSchema`, a
 * prompt's arguments and an elicitation form's `requestedSchema`. Booleans, numbers and integers
 * are parsed and checked here, so a mistyped value is asked again (or named in the error) before
 * anything is sent; what only the server can judge (patterns, formats) is left to the server.
 */

/** @typedef {{ type?: string | string[], enum?: unknown[], oneOf?: JsonSchema[], anyOf?: JsonSchema[], const?: unknown, items?: JsonSchema, title?: string, description?: string, default?: unknown, minimum?: number, maximum?: number, minLength?: number, maxLength?: number, enumNames?: string[] }} JsonSchema */
/** @typedef {{ type?: string, properties?: Record<string, JsonSchema>, required?: string[] }} ObjectSchema */
/** @typedef {{ value: unknown, label: string }} Choice */
/** @typedef {{ ok: true, value: unknown } | { ok: false, problem: string }} Parsed */

const TRUE_WORDS = new Set(["y", "yes", "true", "1"]);
const FALSE_WORDS = new Set(["n", "no", "false", "0"]);

/** The field's type; of a union like `["string", "null"]`, the first that is not null. */
function typeOf(/** @type {JsonSchema} */ schema) {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.find((type) => type && type !== "null");
}

/**
 * The values a single-choice field allows: `enum` (with the legacy `enumNames` as labels) or
 * `oneOf` of `const`s with titles (the 2025-11-25 titled form).
 * @param {JsonSchema} schema
 * @returns {Choice[] | undefined}
 */
export function choicesOf(schema) {
  if (Array.isArray(schema.enum))
    return schema.enum.map((value, i) => ({ value, label: schema.enumNames?.[i] ?? String(value) }));
  const options = schema.oneOf ?? schema.anyOf;
  if (options?.length && options.every((option) => "const" in option)) {
    return options.map((option) => ({ value: option.const, label: option.title ?? String(option.const) }));
  }
  return undefined;
}

/** "integer 1–10", "boolean: y/n", "one of 3", "string": how a field is shown next to its name. */
export function describeType(/** @type {JsonSchema} */ schema) {
  const choices = choicesOf(schema);
  if (choices) return `one of ${choices.length}`;
  const type = typeOf(schema) ?? "JSON";
  if (type === "boolean") return "boolean: y/n";
  if (type === "array" && schema.items && choicesOf(schema.items)) return "list: numbers or values, comma-separated";
  if (type === "array" || type === "object") return `${type} as JSON`;
  if (type !== "number" && type !== "integer") return type;
  // zod marks a plain integer with the safe-integer bounds: not worth showing.
  const min = schema.minimum !== undefined && schema.minimum > -Number.MAX_SAFE_INTEGER ? schema.minimum : undefined;
  const max = schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER ? schema.maximum : undefined;
  if (min === undefined && max === undefined) return type;
  if (max === undefined) return `${type} ≥ ${min}`;
  if (min === undefined) return `${type} ≤ ${max}`;
  return `${type} ${min}–${max}`;
}

/**
 * One choice by its value, its label or its number as listed (1-based): a value first, so an
 * enum of numbers is never misread as positions.
 * @param {Choice[]} choices
 * @param {string} text
 * @returns {Parsed}
 */
function pickChoice(choices, text) {
  const found =
    choices.find((choice) => String(choice.value) === text || choice.label === text) ??
    (/^\d+$/.test(text) ? choices[Number(text) - 1] : undefined);
  if (found) return { ok: true, value: found.value };
  return { ok: false, problem: `choose one of: ${choices.map((choice, i) => `${i + 1}) ${choice.label}`).join(", ")}` };
}

/** @returns {Parsed} */
function parseNumber(/** @type {JsonSchema} */ schema, /** @type {string} */ text, /** @type {string} */ type) {
  const value = Number(text);
  if (text === "" || !Number.isFinite(value)) return { ok: false, problem: `${type} expected` };
  if (type === "integer" && !Number.isInteger(value)) return { ok: false, problem: "a whole number expected" };
  if (schema.minimum !== undefined && value < schema.minimum)
    return { ok: false, problem: `at least ${schema.minimum}` };
  if (schema.maximum !== undefined && value > schema.maximum)
    return { ok: false, problem: `at most ${schema.maximum}` };
  return { ok: true, value };
}

/** @returns {Parsed} */
function parseJson(/** @type {string} */ text, /** @type {string} */ type) {
  try {
    const value = JSON.parse(text);
    const actual = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
    return type === "JSON" || actual === type
      ? { ok: true, value }
      : { ok: false, problem: `${type} expected, as JSON` };
  } catch {
    return { ok: false, problem: `${type} expected, as JSON` };
  }
}

/**
 * Parses `text` as a value of the field `schema` describes.
 * @param {JsonSchema} schema
 * @param {string} text
 * @returns {Parsed}
 */
export function parseFieldValue(schema, text) {
  const choices = choicesOf(schema);
  if (choices) return pickChoice(choices, text);
  const type = typeOf(schema) ?? "JSON";
  switch (type) {
    case "boolean": {
      const word = text.toLowerCase();
      if (TRUE_WORDS.has(word)) return { ok: true, value: true };
      if (FALSE_WORDS.has(word)) return { ok: true, value: false };
      return { ok: false, problem: "y or n expected (yes/no, true/false)" };
    }
    case "number":
    case "integer":
      return parseNumber(schema, text, type);
    case "string":
      if (schema.minLength !== undefined && text.length < schema.minLength)
        return { ok: false, problem: `at least ${schema.minLength} characters` };
      if (schema.maxLength !== undefined && text.length > schema.maxLength)
        return { ok: false, problem: `at most ${schema.maxLength} characters` };
      return { ok: true, value: text };
    case "array": {
      const itemChoices = schema.items && choicesOf(schema.items);
      if (!itemChoices) return parseJson(text, type);
      const picked = text.split(",").map((part) => pickChoice(itemChoices, part.trim()));
      const wrong = picked.find((result) => !result.ok);
      return wrong ?? { ok: true, value: picked.map((result) => (result.ok ? result.value : undefined)) };
    }
    default:
      return parseJson(text, type);
  }
}

/**
 * `key=value` pairs (split at the first `=`) as the values of `schema`'s properties.
 * @param {string[]} pairs
 * @param {ObjectSchema} schema
 * @param {string} what what the values are for, to name it in errors (e.g. `tool "delete_note"`)
 * @returns {Record<string, unknown>}
 */
export function valuesFromPairs(pairs, schema, what) {
  const properties = schema.properties ?? {};
  /** @type {Record<string, unknown>} */
  const values = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at < 1) throw new Error(`"${pair}" is not key=value`);
    const key = pair.slice(0, at);
    const property = properties[key];
    if (!property)
      throw new Error(`${what} has no argument "${key}" (it takes: ${Object.keys(properties).join(", ") || "none"})`);
    const parsed = parseFieldValue(property, pair.slice(at + 1));
    if (!parsed.ok) throw new Error(`${what}: ${key}=${pair.slice(at + 1)}: ${parsed.problem}`);
    values[key] = parsed.value;
  }
  return values;
}
