/**
 * The questions a handler can ask through the client, as typed asks for `inputRequired(...)`:
 * each carries the parser of its own answer, so `readInputResponses` returns answers typed
 * by the question that asked.
 *
 * - Form mode (`defineForm` + `elicitForm`): a flat form of strings, numbers, integers,
 *   booleans and single-choice enums. Never use it for secrets (passwords, API keys,
 *   tokens, payment data): the spec forbids it.
 * - URL mode (`elicitUrl`): send the person to a page of yours for anything sensitive.
 *   "accept" only means they agreed to open it; check on the retry that the step was done.
 * - `askSampling` and `askRoots`: deprecated in 2026-07-28, kept for clients that still answer them.
 *
 * Decline and cancel are answers: branch on them, do not treat them as errors.
 */
import { CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema } from "@modelcontextprotocol/core";
import { z } from "zod";
import { askFor, parseOrUndefined, type AskFor, type CreateMessageRequestParams, type CreateMessageResult, type ElicitRequestFormParams, type InputRequest, type ListRootsResult, type UrlElicitationParams } from "../server/mcp/author";

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
 * Declares a form for `elicitForm`, once, at module level: an unsupported field fails when
 * the file loads (at start-up), not when a person is waiting for the question. Fields are
 * strings (with `min`/`max`, `email`/`url`/date formats), numbers, integers, booleans and enums;
 * `.describe()` becomes the field's description, `.default()` its default, `.optional()` makes it optional.
 *
 * @example
 * const Confirm = defineForm({ confirm: z.boolean().describe("Delete it for good") });
 * const Brief = defineForm({ topic: z.string().min(1), tone: z.enum(["plain", "formal"]).default("plain") });
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

/**
 * Asks the person to fill in a form (`elicitation/create`, form mode). The answer is
 * `{ action: "accept", content }` with `content` validated by the form's schema and typed by it,
 * or `{ action: "decline" }`, or `{ action: "cancel" }`. Content that does not validate counts
 * as not answered, so the question is asked again.
 *
 * @example
 * const ask = { confirm: elicitForm(`Delete note ${id}? This cannot be undone.`, Confirm) };
 * const { confirm } = readInputResponses(mcp, ask);
 * if (!confirm) return inputRequired(mcp, ask);
 * if (confirm.action === "accept" && confirm.content.confirm) await remove(id);
 */
export function elicitForm<Content>(message: string, form: ElicitationForm<Content>): AskFor<ElicitAnswer<Content>> {
  return askFor({ method: "elicitation/create", params: { mode: "form", message, requestedSchema: form.requestedSchema } }, (raw) => {
    const result = parseOrUndefined(ElicitResultSchema, raw);
    if (!result) return undefined;
    if (result.action !== "accept") return { action: result.action };
    const content = form.schema.safeParse(result.content ?? {});
    return content.success ? { action: "accept", content: content.data } : undefined;
  });
}

/**
 * Sends the person to a URL of yours (`elicitation/create`, URL mode): for credentials,
 * payments, third-party sign-in — anything that must not pass through the client. The URL
 * must not carry secrets or personal data, and must not be pre-authenticated. `accept` only
 * means they agreed to open it: on the retry, check that the step was really done.
 *
 * @example
 * const ask = { connect: elicitUrl("Connect your calendar account", `${origin}/connect/${code}`) };
 * const { connect } = readInputResponses(mcp, ask);
 * if (connect && connect.action !== "accept") return `Not connected: you chose ${connect.action}.`;
 * if (!(await isConnected(mcp.principal))) return inputRequired(mcp, ask, { code });
 */
export function elicitUrl(message: string, url: string): AskFor<UrlElicitAnswer> {
  const params: UrlElicitationParams = { mode: "url", message, url };
  return askFor({ method: "elicitation/create", params } as InputRequest, (raw) => {
    const result = parseOrUndefined(ElicitResultSchema, raw);
    return result ? { action: result.action } : undefined;
  });
}

/**
 * Asks the client's model for a completion (`sampling/createMessage`); the answer is the
 * client's `CreateMessageResult`.
 *
 * @deprecated Sampling is deprecated in 2026-07-28 (SEP-2577): call your model provider directly.
 *
 * @example
 * const ask = { capital: askSampling({ messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }], maxTokens: 50 }) };
 * const { capital } = readInputResponses(mcp, ask);
 * if (!capital) return inputRequired(mcp, ask);
 */
export function askSampling(params: CreateMessageRequestParams): AskFor<CreateMessageResult> {
  return askFor({ method: "sampling/createMessage", params }, (raw) => parseOrUndefined(CreateMessageResultSchema, raw) as CreateMessageResult | undefined);
}

/**
 * Asks the client for its root directories (`roots/list`); the answer is its `ListRootsResult`.
 *
 * @deprecated Roots are deprecated in 2026-07-28 (SEP-2577): take directories or files as tool arguments.
 *
 * @example
 * const ask = { roots: askRoots() };
 * const { roots } = readInputResponses(mcp, ask);
 * if (!roots) return inputRequired(mcp, ask);
 * return roots.roots.map((root) => root.uri).join("\n");
 */
export function askRoots(): AskFor<ListRootsResult> {
  return askFor({ method: "roots/list" }, (raw) => parseOrUndefined(ListRootsResultSchema, raw) as ListRootsResult | undefined);
}
