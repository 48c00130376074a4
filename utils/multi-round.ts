/**
 * Multi round-trip requests: a handler runs again each round, reads the answers so far, asks for what is missing, and keeps what it must
 * remember in the sealed state (the client can neither read nor change it). Each ask carries its answer parser in a symbol (off the wire).
 */
import { CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema } from "@modelcontextprotocol/core";
import { z } from "zod";
import {
  clientCanAnswer,
  createInputRequiredOutcome,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  type InputRequest,
  type InputRequiredOutcome,
  type ListRootsResult,
  type McpContext,
  type UrlElicitationParams,
} from "../server/mcp/kit";

const PARSE_ANSWER = Symbol.for("mcp-edge-template.parse-answer");

/** An input request whose answer, once validated, has type `Answer`. */
export type AskFor<Answer> = InputRequest & { readonly [PARSE_ANSWER]: (raw: unknown) => Answer | undefined };
type AnswerOf<Ask> = Ask extends AskFor<infer Answer> ? Answer : never;
type Asks = Readonly<Record<string, AskFor<unknown>>>;

// A literal: JSON and `Object.keys` skip a symbol key anyway, and defineProperty on every ask is a slow call into the runtime.
const askFor = <Answer>(ask: InputRequest, parse: (raw: unknown) => Answer | undefined): AskFor<Answer> =>
  ({ method: ask.method, params: ask.params, [PARSE_ANSWER]: parse }) as AskFor<Answer>;

const parseOrUndefined = <T>(schema: z.ZodType<T>, raw: unknown): T | undefined => schema.safeParse(raw).data;

export type ElicitAnswer<Content> = { action: "accept"; content: Content } | { action: "decline" | "cancel" };
export type UrlElicitAnswer = { action: "accept" | "decline" | "cancel" };

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
    throw new Error(
      `defineForm: field "${name}" ${reason}. Forms hold strings, numbers, integers, booleans and enums.`,
    );
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
  if (cleaned.format !== undefined && !FORMATS.has(cleaned.format as string))
    fail(`has unsupported format "${cleaned.format}"`);
  return cleaned;
}

/**
 * Declares a form for `elicitForm` at module level, so an unsupported field fails at start-up, not while a person waits: strings
 * (`min`/`max`, `email`/`url`/date formats), numbers, integers, booleans, enums, with `.describe()`, `.default()`, `.optional()`.
 * Never ask for secrets (passwords, API keys, tokens, payment data) in a form: the spec forbids it (`elicitUrl` is for those).
 * @example
 * const Confirm = defineForm({ confirm: z.boolean().describe("Delete it for good") });
 * const Brief = defineForm({ topic: z.string().min(1), tone: z.enum(["plain", "formal"]).default("plain") });
 */
export function defineForm<Shape extends z.ZodRawShape>(
  shape: Shape | z.ZodObject<Shape>,
): ElicitationForm<z.output<z.ZodObject<Shape>>> {
  const schema = shape instanceof z.ZodObject ? shape : z.object(shape);
  const json = z.toJSONSchema(schema, { io: "input" }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
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
 * Asks for a form (`elicitation/create`, form mode): accept with typed `content` (invalid content counts as unanswered), decline or cancel.
 * @example
 * const ask = { confirm: elicitForm(`Delete note ${id}? This cannot be undone.`, Confirm) };
 * const { confirm } = readInputResponses(mcp, ask);
 * if (!confirm) return inputRequired(mcp, ask);
 * if (confirm.action === "accept" && confirm.content.confirm) await remove(id);
 */
export function elicitForm<Content>(message: string, form: ElicitationForm<Content>): AskFor<ElicitAnswer<Content>> {
  return askFor(
    { method: "elicitation/create", params: { mode: "form", message, requestedSchema: form.requestedSchema } },
    (raw) => {
      const result = parseOrUndefined(ElicitResultSchema, raw);
      if (!result) return undefined;
      if (result.action !== "accept") return { action: result.action };
      const content = form.schema.safeParse(result.content ?? {});
      return content.success ? { action: "accept", content: content.data } : undefined;
    },
  );
}

/**
 * Sends the person to a URL of yours (`elicitation/create`, URL mode) for what must bypass the client: credentials, payments, a
 * third party's login. The URL holds no secrets, personal data or pre-authentication; `accept` only means they agreed to open it: check on the retry.
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
 * Asks the client's model for a completion (`sampling/createMessage`); the answer is its `CreateMessageResult`.
 * @deprecated Sampling is deprecated in 2026-07-28 (SEP-2577): call your model provider directly.
 * @example
 * const ask = { capital: askSampling({ messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }], maxTokens: 50 }) };
 * const { capital } = readInputResponses(mcp, ask);
 * if (!capital) return inputRequired(mcp, ask);
 */
export function askSampling(params: CreateMessageRequestParams): AskFor<CreateMessageResult> {
  return askFor({ method: "sampling/createMessage", params }, (raw) =>
    parseOrUndefined(CreateMessageResultSchema, raw),
  );
}

/**
 * Asks the client for its root directories (`roots/list`); the answer is its `ListRootsResult`.
 * @deprecated Roots are deprecated in 2026-07-28 (SEP-2577): take directories or files as tool arguments.
 * @example
 * const ask = { roots: askRoots() };
 * const { roots } = readInputResponses(mcp, ask);
 * if (!roots) return inputRequired(mcp, ask);
 * return roots.roots.map((root) => root.uri).join("\n");
 */
export function askRoots(): AskFor<ListRootsResult> {
  return askFor({ method: "roots/list" }, (raw) => parseOrUndefined(ListRootsResultSchema, raw));
}

/**
 * Answers "I need this first": the client asks, then retries with the answers; `state` (plain JSON) returns sealed, for `readRequestState`.
 * Answers don't accumulate: keep earlier ones in `state`. Only tools/call, prompts/get, resources/read may ask; undeclared asks get -32021.
 * @example
 * const ask = { confirm: elicitForm(`Delete note ${id}?`, Confirm) };
 * const { confirm } = readInputResponses(mcp, ask);
 * if (!confirm) return inputRequired(mcp, ask, { step: 2 }); // first round, or an answer that did not validate
 */
export function inputRequired(
  mcp: McpContext,
  inputRequests: Asks,
  state: Record<string, unknown> = {},
): InputRequiredOutcome {
  return createInputRequiredOutcome(mcp, inputRequests, state);
}

/**
 * The answers to `asks`, typed by the question that asked; a key is absent when unanswered or invalid (so asked again).
 * @example
 * const ask = { confirm: elicitForm("Sure?", Confirm) };
 * const { confirm } = readInputResponses(mcp, ask);
 * if (!confirm) return inputRequired(mcp, ask);
 * if (confirm.action === "accept") return confirm.content.confirm ? "Done." : "Left as it was."; // typed by Confirm
 * return `You chose ${confirm.action}.`; // decline and cancel are answers, not errors
 */
export function readInputResponses<A extends Asks>(mcp: McpContext, asks: A): { [K in keyof A]?: AnswerOf<A[K]> } {
  const answers: { [K in keyof A]?: AnswerOf<A[K]> } = {};
  for (const key of Object.keys(asks) as (keyof A & string)[]) {
    const raw = mcp.inputResponses[key];
    const answer = raw === undefined ? undefined : asks[key]![PARSE_ANSWER](raw);
    if (answer !== undefined) answers[key] = answer as AnswerOf<A[typeof key]>;
  }
  return answers;
}

/**
 * The subset of `asks` with no usable answer yet, or undefined when everything is answered.
 * @example
 * const ask = { name: elicitForm("Your name?", Name), email: elicitForm("Your email?", Email) };
 * const missing = missingInputs(mcp, ask);
 * if (missing) return inputRequired(mcp, missing); // only re-ask what is still open
 */
export function missingInputs<A extends Asks>(mcp: McpContext, asks: A): Partial<A> | undefined {
  const answers = readInputResponses(mcp, asks);
  const missing = Object.fromEntries(Object.entries(asks).filter(([key]) => !(key in answers))) as Partial<A>;
  return Object.keys(missing).length ? missing : undefined;
}

/**
 * Can this client answer `ask` on this request? Read from the capabilities it declared: in this request's `_meta`, or, for
 * a client of an older revision served by a feature, wherever that feature keeps them (the 2025-era session).
 * @example
 * const ask = { format: elicitForm("Markdown or JSON?", Format) };
 * if (!canRequestInput(mcp, ask.format)) return asMarkdown(notes); // degrade instead of -32021
 */
export function canRequestInput(mcp: McpContext, ask: AskFor<unknown>): boolean {
  return clientCanAnswer(mcp.clientCapabilities, ask);
}

/**
 * The subset of `asks` this client can answer (possibly empty), to degrade instead of failing with -32021.
 * @example
 * const askable = supportedInputs(mcp, { form: elicitForm("Name?", Name), model: askSampling(params) });
 * if (Object.keys(askable).length) return inputRequired(mcp, askable);
 */
export function supportedInputs<A extends Asks>(mcp: McpContext, asks: A): Partial<A> {
  return Object.fromEntries(Object.entries(asks).filter(([, ask]) => canRequestInput(mcp, ask))) as Partial<A>;
}

/**
 * The state passed to `inputRequired` last round (undefined on the first): sealed, so what you wrote, but only as fresh as that
 * round. With a zod `schema`, a state that no longer matches (sealed before a deploy changed its shape) reads as undefined.
 * @example
 * const Progress = z.object({ name: z.string().optional(), color: z.string().optional() });
 * const progress = readRequestState(mcp, Progress) ?? {};
 * if (progress.name === undefined) { … ask for the name … }
 */
export function readRequestState<Schema extends z.ZodType<Record<string, unknown>>>(
  mcp: McpContext,
  schema: Schema,
): z.output<Schema> | undefined;
/**
 * The state this handler passed to `inputRequired` on the previous round, as `State`, unchecked (a zod schema checks it).
 * @example
 * const progress = readRequestState<{ step?: number }>(mcp) ?? {};
 */
export function readRequestState<State extends Record<string, unknown> = Record<string, unknown>>(
  mcp: McpContext,
): State | undefined;
export function readRequestState(
  mcp: McpContext,
  schema?: z.ZodType<Record<string, unknown>>,
): Record<string, unknown> | undefined {
  const data = mcp.state?.data;
  if (data === undefined || schema === undefined) return data;
  return parseOrUndefined(schema, data);
}
