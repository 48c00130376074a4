/** `defineTool`: one file in `server/tools/` = one tool. */
import { z } from "zod";
import {
  entryBase,
  describeIssues,
  findHeaderParams,
  isInputRequiredOutcome,
  isToolErrorResult,
  logWithReference,
  McpError,
  objectSchema,
  presentFields,
  StorageUnavailableError,
  toolErrorResult,
  type CallToolResult,
  type ContentBlock,
  type InputOf,
  type InputRequiredOutcome,
  type DefinitionOptions,
  type McpContext,
  type ObjectInput,
  type Tool,
  type ToolDefinitionOptions,
  type ToolEntry,
  type ToolErrorResult,
  type ValidArguments,
} from "../server/mcp/kit";

type StructuredOutput = z.ZodType<Record<string, unknown>>;

/** What `run` may return: text, content blocks, a full result, `toolError(…)`, or `inputRequired(…)`. */
export type ToolReturn = string | ContentBlock[] | CallToolResult | InputRequiredOutcome;
/** With an `output` schema, `run` returns the structured value (or `toolError(…)`, or `inputRequired(…)`). */
export type StructuredToolReturn<Output extends StructuredOutput> =
  | z.input<Output>
  | ToolErrorResult
  | InputRequiredOutcome;

interface ToolOptionsBase<Input extends ObjectInput> extends DefinitionOptions, ToolDefinitionOptions<InputOf<Input>> {
  /** Unique among the server's tools; what the model calls. */
  name: string;
  title?: string;
  /** What the tool does, for the model. Required: clients and the conformance suite expect one. */
  description: string;
  /** Arguments, as a zod object or a shape. Published as JSON Schema 2020-12 and checked on every call. */
  input?: Input;
  /** Publish this JSON Schema verbatim instead of the one generated from `input` (which still validates). */
  inputJsonSchema?: Tool["inputSchema"];
  annotations?: Tool["annotations"];
  icons?: Tool["icons"];
  _meta?: Record<string, unknown>;
}

export interface ToolOptions<Input extends ObjectInput> extends ToolOptionsBase<Input> {
  output?: undefined;
  /** Runs on every call (and on every round of a multi-round call) with the validated arguments. */
  run(args: InputOf<Input>, mcp: McpContext): ToolReturn | Promise<ToolReturn>;
}

export interface StructuredToolOptions<Input extends ObjectInput, Output extends StructuredOutput>
  extends ToolOptionsBase<Input> {
  /** Structured output: `run` returns an object of this shape; it is sent as `structuredContent` and as JSON text. */
  output: Output;
  /** Runs on every call (and on every round of a multi-round call) with the validated arguments. */
  run(args: InputOf<Input>, mcp: McpContext): StructuredToolReturn<Output> | Promise<StructuredToolReturn<Output>>;
}

/**
 * Declares a tool (one file in `server/tools/`): invalid arguments and exceptions become `isError` results, an exception's details logged.
 * @example
 * // server/tools/add.ts
 * import { z } from "zod";
 * export default defineTool({
 *   name: "add",
 *   description: "Adds two numbers.",
 *   input: { a: z.number(), b: z.number() },
 *   output: z.object({ sum: z.number() }),
 *   annotations: { readOnlyHint: true },
 *   run: ({ a, b }) => ({ sum: a + b }),
 * });
 */
export function defineTool<
  // biome-ignore lint/complexity/noBannedTypes: the type of `z.object({})`; `Record<string, never>` makes a different ZodObject
  Input extends ObjectInput = z.ZodObject<{}>,
>(options: ToolOptions<Input>): ToolEntry;
/** Declares a tool with structured output (as in the example above). */
export function defineTool<Input extends ObjectInput, Output extends StructuredOutput>(
  options: StructuredToolOptions<Input, Output>,
): ToolEntry;
export function defineTool(
  options: ToolOptions<ObjectInput> | StructuredToolOptions<ObjectInput, StructuredOutput>,
): ToolEntry {
  const input = objectSchema(options.input);
  const inputSchema = (options.inputJsonSchema ?? z.toJSONSchema(input, { io: "input" })) as Tool["inputSchema"];
  if (inputSchema.type !== "object")
    throw new Error(`Tool "${options.name}": the input schema must describe an object`);
  const { name, title, description, output, annotations, icons, _meta } = options;
  const outputSchema = output && (z.toJSONSchema(output, { io: "output" }) as Tool["outputSchema"]);
  const descriptor: Tool = {
    name,
    description,
    inputSchema,
    ...presentFields({ title, outputSchema, annotations, icons, _meta }),
  };

  function toResult(value: unknown): CallToolResult {
    if (typeof value === "string") return { content: [{ type: "text", text: value }] };
    if (Array.isArray(value)) return { content: value as ContentBlock[] };
    if (options.output && !isToolErrorResult(value)) {
      const structured = options.output.safeParse(value);
      // A value the tool cannot represent (a sum that overflowed to Infinity, say) is its own failure, not a crash.
      if (!structured.success)
        return toolErrorResult(
          `The tool "${options.name}" produced no valid result: ${describeIssues(structured.error)}`,
        );
      return { content: [{ type: "text", text: JSON.stringify(structured.data) }], structuredContent: structured.data };
    }
    if (typeof value === "object" && value !== null && Array.isArray((value as CallToolResult).content))
      return value as CallToolResult;
    throw new TypeError(`tool "${options.name}" returned something that is not a tool result`);
  }

  function parse(args: unknown): { arguments: ValidArguments } | { invalid: CallToolResult } {
    const parsed = input.safeParse(args);
    if (parsed.success) return { arguments: parsed.data };
    return {
      invalid: toolErrorResult(`Invalid arguments for tool "${options.name}": ${describeIssues(parsed.error)}`),
    };
  }

  async function run(args: ValidArguments, mcp: McpContext): Promise<CallToolResult | InputRequiredOutcome> {
    try {
      const value: unknown = await options.run(args, mcp);
      return isInputRequiredOutcome(value) ? value : toResult(value);
    } catch (error) {
      // Protocol errors and an unreachable store are the server's to answer, not the tool's.
      if (error instanceof McpError || error instanceof StorageUnavailableError) throw error;
      const reference = logWithReference(`tool "${options.name}" threw`, error);
      return toolErrorResult(`The tool "${options.name}" failed unexpectedly (reference ${reference}).`);
    }
  }

  return {
    ...entryBase(options),
    kind: "tool",
    descriptor,
    headerParams: findHeaderParams(options.name, inputSchema as Record<string, unknown>),
    parse,
    run,
    async call(args, mcp) {
      const parsed = parse(args);
      return "invalid" in parsed ? parsed.invalid : await run(parsed.arguments, mcp);
    },
  };
}
