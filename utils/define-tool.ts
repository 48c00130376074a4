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
  StorageUnavailableError,
  toolErrorResult,
  type CallToolResult,
  type ContentBlock,
  type InputOf,
  type InputRequiredOutcome,
  type EntryOptions,
  type McpContext,
  type ObjectInput,
  type Tool,
  type ToolAnnotations,
  type ToolEntry,
  type ToolErrorResult,
} from "../server/mcp/author";

type StructuredOutput = z.ZodType<Record<string, unknown>>;

/** What `run` may return: text, content blocks, a full result, `toolError(…)`, or `inputRequired(…)`. */
export type ToolReturn = string | ContentBlock[] | CallToolResult | InputRequiredOutcome;
/** With an `output` schema, `run` returns the structured value (or `toolError(…)`, or `inputRequired(…)`). */
export type StructuredToolReturn<Output extends StructuredOutput> =
  | z.input<Output>
  | ToolErrorResult
  | InputRequiredOutcome;

interface ToolOptionsBase<Input extends ObjectInput, Prepared extends Prepared_ | undefined> extends EntryOptions {
  /** Unique among the server's tools; what the model calls. */
  name: string;
  title?: string;
  /** What the tool does, for the model. Required: clients and the conformance suite expect one. */
  description: string;
  /** Arguments, as a zod object or a shape. Published as JSON Schema 2020-12 and checked on every call. */
  input?: Input;
  /** Publish this JSON Schema verbatim instead of the one generated from `input` (which still validates). */
  inputJsonSchema?: Tool["inputSchema"];
  annotations?: ToolAnnotations;
  icons?: Tool["icons"];
  _meta?: Record<string, unknown>;
  /**
   * Runs as a task (`io.modelcontextprotocol/tasks`, the tasks feature): the call answers at once with a task the client polls while `run`
   * goes on, on any instance, each round with the parsed arguments (stored as JSON); `sendProgress` sets its status, `inputRequired` parks
   * it, `mcp.signal` fires on cancel. `"optional"`: if the client declares it; `"required"`: always (-32021 without; 2025-era: isError).
   */
  task?: "optional" | "required";
  /** Task tools only: asks the job's questions before the task exists (the extension's advice); returns `run`'s 3rd argument. */
  prepare?(
    args: InputOf<Input>,
    mcp: McpContext,
  ): Prepared | InputRequiredOutcome | Promise<Prepared | InputRequiredOutcome>;
}

type Prepared_ = Record<string, unknown>;

export interface ToolOptions<Input extends ObjectInput, Prepared extends Prepared_ | undefined = undefined>
  extends ToolOptionsBase<Input, Prepared> {
  output?: undefined;
  /** Runs on every call (and on every round of a multi-round call or a task) with the validated arguments. */
  run(args: InputOf<Input>, mcp: McpContext, prepared: Prepared): ToolReturn | Promise<ToolReturn>;
}

export interface StructuredToolOptions<
  Input extends ObjectInput,
  Output extends StructuredOutput,
  Prepared extends Prepared_ | undefined = undefined,
> extends ToolOptionsBase<Input, Prepared> {
  /** Structured output: `run` returns an object of this shape; it is sent as `structuredContent` and as JSON text. */
  output: Output;
  /** Runs on every call (and on every round of a multi-round call or a task) with the validated arguments. */
  run(
    args: InputOf<Input>,
    mcp: McpContext,
    prepared: Prepared,
  ): StructuredToolReturn<Output> | Promise<StructuredToolReturn<Output>>;
}

const isToolResult = (value: unknown): value is CallToolResult =>
  typeof value === "object" && value !== null && Array.isArray((value as CallToolResult).content);

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
  Prepared extends Prepared_ | undefined = undefined,
>(options: ToolOptions<Input, Prepared>): ToolEntry;
/** Declares a tool with structured output (as in the example above). */
export function defineTool<
  Input extends ObjectInput,
  Output extends StructuredOutput,
  Prepared extends Prepared_ | undefined = undefined,
>(options: StructuredToolOptions<Input, Output, Prepared>): ToolEntry;
export function defineTool(
  options:
    | ToolOptions<ObjectInput, Prepared_ | undefined>
    | StructuredToolOptions<ObjectInput, StructuredOutput, Prepared_ | undefined>,
): ToolEntry {
  const input = objectSchema(options.input);
  const inputSchema = (options.inputJsonSchema ?? z.toJSONSchema(input, { io: "input" })) as Tool["inputSchema"];
  if (inputSchema.type !== "object")
    throw new Error(`Tool "${options.name}": the input schema must describe an object`);
  if (options.prepare && !options.task)
    throw new Error(`Tool "${options.name}": prepare() only runs before a task: set task: "optional" or "required"`);
  const outputSchema = options.output
    ? (z.toJSONSchema(options.output, { io: "output" }) as Tool["outputSchema"])
    : undefined;
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
    if (options.output && !isToolErrorResult(value)) {
      const structured = options.output.safeParse(value);
      // A value the tool cannot represent (a sum that overflowed to Infinity, say) is its own failure, not a crash.
      if (!structured.success)
        return toolErrorResult(
          `The tool "${options.name}" produced no valid result: ${describeIssues(structured.error)}`,
        );
      return { content: [{ type: "text", text: JSON.stringify(structured.data) }], structuredContent: structured.data };
    }
    if (isToolResult(value)) return value;
    throw new TypeError(`tool "${options.name}" returned something that is not a tool result`);
  }

  async function guarded<T>(
    args: unknown,
    work: (parsed: Record<string, unknown>) => Promise<T>,
  ): Promise<T | CallToolResult> {
    const parsed = input.safeParse(args);
    if (!parsed.success)
      return toolErrorResult(`Invalid arguments for tool "${options.name}": ${describeIssues(parsed.error)}`);
    return caught(() => work(parsed.data));
  }

  async function caught<T>(work: () => Promise<T>): Promise<T | CallToolResult> {
    try {
      return await work();
    } catch (error) {
      // Protocol errors and an unreachable store are the server's to answer, not the tool's.
      if (error instanceof McpError || error instanceof StorageUnavailableError) throw error;
      const reference = logWithReference(`tool "${options.name}" threw`, error);
      return toolErrorResult(`The tool "${options.name}" failed unexpectedly (reference ${reference}).`);
    }
  }

  async function runOnce(
    parsed: Readonly<Record<string, unknown>>,
    mcp: McpContext,
    prepared: Prepared_ | undefined,
  ): Promise<CallToolResult | InputRequiredOutcome> {
    const value: unknown = await options.run(parsed, mcp, prepared);
    return isInputRequiredOutcome(value) ? value : toResult(value);
  }

  const { prepare } = options;
  return {
    ...entryBase(options),
    kind: "tool",
    descriptor,
    headerParams: findHeaderParams(options.name, inputSchema as Record<string, unknown>),
    ...(options.task && {
      task: {
        mode: options.task,
        async prepare(args, mcp) {
          const value = await guarded(args, async (parsed) => ({
            parsed,
            value: prepare ? await prepare(parsed, mcp) : undefined,
          }));
          if (!("value" in value)) return { answer: value }; // invalid arguments, or prepare threw
          if (isInputRequiredOutcome(value.value)) return { answer: value.value };
          return { arguments: value.parsed as Record<string, unknown>, prepared: value.value as Prepared_ | undefined };
        },
        run: (args, mcp, prepared) => caught(() => runOnce(args, mcp, prepared)),
      },
    }),
    call: (args, mcp) => guarded(args, (parsed) => runOnce(parsed, mcp, undefined)),
  };
}
