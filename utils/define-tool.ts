/**
 * `defineTool`: one file in `server/tools/` = one tool.
 *
 * @example
 * // server/tools/add.ts
 * import { z } from "zod";
 * export default defineTool({
 *   name: "add",
 *   description: "Adds two numbers.",
 *   input: { a: z.number(), b: z.number() },
 *   run: ({ a, b }) => `${a + b}`,
 * });
 */
import { z } from "zod";
import type { McpContext } from "../server/mcp/context";
import { DEFINITION, type ToolEntry } from "../server/mcp/definitions";
import { McpError } from "../server/mcp/errors";
import { findHeaderParams } from "../server/mcp/http/header-params";
import { isInputRequiredOutcome, type InputRequiredOutcome } from "../server/mcp/input-required";
import { logWithReference } from "../server/mcp/log";
import type { CallToolResult, ContentBlock, Tool, ToolAnnotations } from "../server/mcp/protocol";
import { describeIssues, objectSchema, type InputOf, type ObjectInput } from "../server/mcp/zod-input";

const TOOL_RESULT = Symbol.for("mcp-edge-template.tool-result");

type BrandedToolResult = CallToolResult & { readonly [TOOL_RESULT]: true };
type StructuredOutput = z.ZodType<Record<string, unknown>>;

/** What `run` may return: text, content blocks, a full result, `toolError(…)`, or `inputRequired(…)`. */
export type ToolReturn = string | ContentBlock[] | CallToolResult | InputRequiredOutcome;
/** With an `output` schema, `run` returns the structured value (or `toolError(…)`, or `inputRequired(…)`). */
export type StructuredToolReturn<Output extends StructuredOutput> = z.input<Output> | BrandedToolResult | InputRequiredOutcome;

interface ToolOptionsBase<Input extends ObjectInput> {
  name: string;
  title?: string;
  /** What the tool does, for the model. Required: clients and the conformance suite expect one. */
  description: string;
  /** Arguments, as a zod object or a shape. Published as JSON Schema 2020-12. */
  input?: Input;
  /** Publish this JSON Schema verbatim instead of the one generated from `input` (which still validates). */
  inputJsonSchema?: Tool["inputSchema"];
  annotations?: ToolAnnotations;
  icons?: Tool["icons"];
  _meta?: Record<string, unknown>;
  /** Each `requestState` this tool issues is accepted once, and answers need one (see README, "Single use"). */
  singleUseState?: boolean;
}

export interface ToolOptions<Input extends ObjectInput> extends ToolOptionsBase<Input> {
  output?: undefined;
  run(args: InputOf<Input>, mcp: McpContext): ToolReturn | Promise<ToolReturn>;
}

export interface StructuredToolOptions<Input extends ObjectInput, Output extends StructuredOutput> extends ToolOptionsBase<Input> {
  /** Structured output: `run` returns an object of this shape; it is sent as `structuredContent` and as JSON text. */
  output: Output;
  run(args: InputOf<Input>, mcp: McpContext): StructuredToolReturn<Output> | Promise<StructuredToolReturn<Output>>;
}

/**
 * A failed tool call the model can read and act on (`isError: true`), not a protocol error.
 *
 * @example
 * if (!note) return toolError(`There is no note with id ${note_id}.`);
 */
export function toolError(message: string): BrandedToolResult {
  return { content: [{ type: "text", text: message }], isError: true, [TOOL_RESULT]: true };
}

const isToolResult = (value: unknown): value is CallToolResult =>
  typeof value === "object" && value !== null && Array.isArray((value as CallToolResult).content);

export function defineTool<Input extends ObjectInput = z.ZodObject<{}>>(options: ToolOptions<Input>): ToolEntry;
export function defineTool<Input extends ObjectInput, Output extends StructuredOutput>(
  options: StructuredToolOptions<Input, Output>,
): ToolEntry;
export function defineTool(options: ToolOptions<ObjectInput> | StructuredToolOptions<ObjectInput, StructuredOutput>): ToolEntry {
  const input = objectSchema(options.input);
  const inputSchema = (options.inputJsonSchema ?? z.toJSONSchema(input, { io: "input" })) as Tool["inputSchema"];
  if (inputSchema.type !== "object") throw new Error(`Tool "${options.name}": the input schema must describe an object`);
  const outputSchema = options.output ? (z.toJSONSchema(options.output, { io: "output" }) as Tool["outputSchema"]) : undefined;
  const descriptor: Tool = {
    name: options.name,
    ...(options.title ? { title: options.title } : {}),
    description: options.description,
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    ...(options.annotations ? { annotations: options.annotations } : {}),
    ...(options.icons ? { icons: options.icons } : {}),
    ...(options._meta ? { _meta: options._meta } : {}),
  };

  function toResult(value: unknown): CallToolResult {
    if (typeof value === "string") return { content: [{ type: "text", text: value }] };
    if (Array.isArray(value)) return { content: value as ContentBlock[] };
    if (options.output && !(value as Partial<BrandedToolResult>)?.[TOOL_RESULT]) {
      const structured = options.output.parse(value) as Record<string, unknown>;
      return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
    }
    if (isToolResult(value)) return value;
    throw new TypeError(`tool "${options.name}" returned something that is not a tool result`);
  }

  return {
    [DEFINITION]: true,
    kind: "tool",
    descriptor,
    headerParams: findHeaderParams(options.name, inputSchema as Record<string, unknown>),
    singleUseState: options.singleUseState ?? false,
    async call(args, mcp) {
      const parsed = input.safeParse(args);
      if (!parsed.success) return toolError(`Invalid arguments for tool "${options.name}": ${describeIssues(parsed.error)}`);
      try {
        const value: unknown = await options.run(parsed.data, mcp);
        return isInputRequiredOutcome(value) ? value : toResult(value);
      } catch (error) {
        if (error instanceof McpError) throw error;
        const reference = logWithReference(`tool "${options.name}" threw`, error);
        return toolError(`The tool "${options.name}" failed unexpectedly (reference ${reference}).`);
      }
    },
  };
}
