/**
 * Elicitation: ask the person, through the client.
 *
 * - Form mode (`defineForm` + `elicitForm`): a flat form of strings, numbers, integers,
 *   booleans and single-choice enums. Never use it for secrets (passwords, API keys,
 *   tokens, payment data): the spec forbids it.
 * - URL mode (`elicitUrl`): send the person to a page of yours for anything sensitive.
 *   "accept" only means they agreed to open it; check on the retry that the step was done.
 *
 * Decline and cancel are answers: branch on them, do not treat them as errors.
 */
import { ElicitResultSchema } from "@modelcontextprotocol/core";
import { z } from "zod";
import { askFor, type AskFor } from "../server/mcp/input-requests";
import type { ElicitRequestFormParams, InputRequest, UrlElicitationParams } from "../server/mcp/protocol";

export type ElicitAnswer<Content> = { action: "accept"; content: Content } | { action: "decline" } | { action: "cancel" };
export type UrlElicitAnswer = { action: "accept" } | { action: "decline" } | { action: "cancel" };

export interface ElicitationForm<Content> {
  readonly requestedSchema: ElicitRequestFormParams["requestedSchema"];
  readonly schema: z.ZodType<Content>;
}

const ALLOWED_KEYWORDS: Record<string, readonly string[]> = {
  string: ["type", "title", "description", "minLength", "maxLength", "format", "default", "enum"],
  number: ["type", "title", "description", "minimum", "maximum", "default"],
  integer: ["type", "title", "description", "minimum", "maximum", "default"],
  boolean: ["type", "title", "description", "default"],
};
const FORMATS = new Set(["email", "uri", "date", "date-time"]);
const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

/** Checks one generated property against the elicitation subset; returns it with zod's redundant extras removed. */
function formProperty(name: string, property: Record<string, unknown>): Record<string, unknown> {
  const fail = (reason: string): never => {
    throw new Error(`defineForm: field "${name}" ${reason}. Forms hold strings, numbers, integers, booleans and enums.`);
  };
  const type = property.type;
  if (typeof type !== "string" || !ALLOWED_KEYWORDS[type]) fail(`has unsupported type ${JSON.stringify(type)}`);
  const cleaned: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(property)) {
    if (key === "pattern" && typeof property.format === "string") continue; // zod's own regex for a format
    if ((key === "minimum" && value === -SAFE_INTEGER) || (key === "maximum" && value === SAFE_INTEGER)) continue;
    if (!ALLOWED_KEYWORDS[type as string]!.includes(key)) fail(`uses "${key}", which elicitation forms do not support`);
    cleaned[key] = value;
  }
  if (cleaned.format !== undefined && !FORMATS.has(cleaned.format as string)) fail(`has unsupported format "${cleaned.format}"`);
  return cleaned;
}

/**
 * Declares a form once, at module level: an unsupported field fails when the tool file
 * loads (at start-up), not when a person is waiting for the question.
 *
 * @example
 * const Confirm = defineForm({ confirm: z.boolean().describe("Delete it for good") });
 */
export function defineForm<Shape extends z.ZodRawShape>(shape: Shape | z.ZodObject<Shape>): ElicitationForm<z.output<z.ZodObject<Shape>>> {
  const schema = shape instanceof z.ZodObject ? shape : z.object(shape);
  const json = z.toJSONSchema(schema, { io: "input" }) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  const properties = Object.fromEntries(
    Object.entries(json.properties ?? {}).map(([name, property]) => [name, formProperty(name, property)]),
  );
  return {
    requestedSchema: {
      type: "object",
      properties: properties as ElicitRequestFormParams["requestedSchema"]["properties"],
      ...(json.required?.length ? { required: json.required } : {}),
    },
    schema: schema as z.ZodType<z.output<z.ZodObject<Shape>>>,
  };
}

function parseElicitResult(raw: unknown) {
  const parsed = ElicitResultSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Asks the person to fill in a form. The answer's content is validated with the form's
 * zod schema: content that does not validate counts as not answered, and is asked again.
 *
 * @example
 * const ask = { confirm: elicitForm(`Delete note ${id}? This cannot be undone.`, Confirm) };
 */
export function elicitForm<Content>(message: string, form: ElicitationForm<Content>): AskFor<ElicitAnswer<Content>> {
  return askFor({ method: "elicitation/create", params: { mode: "form", message, requestedSchema: form.requestedSchema } }, (raw) => {
    const result = parseElicitResult(raw);
    if (!result) return undefined;
    if (result.action !== "accept") return { action: result.action };
    const content = form.schema.safeParse(result.content ?? {});
    return content.success ? { action: "accept", content: content.data } : undefined;
  });
}

/**
 * Sends the person to a URL (for credentials, payments, third-party sign-in). The URL
 * must not carry secrets or personal data, and must not be pre-authenticated.
 *
 * @example
 * const ask = { connect: elicitUrl("Connect your calendar account", `${origin}/connect/${code}`) };
 */
export function elicitUrl(message: string, url: string): AskFor<UrlElicitAnswer> {
  const params: UrlElicitationParams = { mode: "url", message, url };
  return askFor({ method: "elicitation/create", params } as InputRequest, (raw) => {
    const result = parseElicitResult(raw);
    return result ? { action: result.action } : undefined;
  });
}
