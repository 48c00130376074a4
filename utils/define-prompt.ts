/** `definePrompt`: one file in `server/prompts/` = one prompt. */
import { z } from "zod";
import {
  entryBase,
  describeIssues,
  invalidParams,
  isInputRequiredOutcome,
  presentFields,
  type Completer,
  type GetPromptResult,
  type InputRequiredOutcome,
  type DefinitionOptions,
  type McpContext,
  type Prompt,
  type PromptArgument,
  type PromptEntry,
  type PromptMessage,
} from "../server/mcp/kit";

type StringArguments = Record<string, z.ZodType<string | undefined>>;

export type PromptReturn = string | PromptMessage[] | GetPromptResult | InputRequiredOutcome;

export interface PromptOptions<Args extends StringArguments> extends DefinitionOptions {
  name: string;
  title?: string;
  description: string;
  /** Each argument is a zod string schema; `.describe()` becomes its description, `.optional()` makes it optional. */
  arguments?: Args;
  /** Completion for arguments, by argument name. */
  complete?: { [K in keyof Args]?: Completer };
  icons?: Prompt["icons"];
  /** Runs on every call (and every round) with the validated arguments: text, messages, a full result, or `inputRequired(…)`. */
  run(args: z.output<z.ZodObject<Args>>, mcp: McpContext): PromptReturn | Promise<PromptReturn>;
}

function toResult(value: Exclude<PromptReturn, InputRequiredOutcome>, description: string): GetPromptResult {
  if (typeof value === "string")
    return { description, messages: [{ role: "user", content: { type: "text", text: value } }] };
  if (Array.isArray(value)) return { description, messages: value };
  return value;
}

/**
 * Declares a prompt (a file in `server/prompts/`) with string arguments; throw `invalidArguments(…)` for valid, unusable ones (-32602).
 * @example
 * // server/prompts/summarize.ts
 * import { z } from "zod";
 * export default definePrompt({
 *   name: "summarize",
 *   description: "Summarize a text in a given tone.",
 *   arguments: { text: z.string().describe("What to summarize"), tone: z.string().optional() },
 *   complete: { tone: (value) => ["formal", "friendly"].filter((t) => t.startsWith(value)) },
 *   run: ({ text, tone }) => `Summarize this${tone ? ` in a ${tone} tone` : ""}:\n\n${text}`,
 * });
 */
// biome-ignore lint/complexity/noBannedTypes: no arguments is the shape `{}`, as in `z.object({})`; `Record<string, never>` changes PromptOptions
export function definePrompt<Args extends StringArguments = {}>(options: PromptOptions<Args>): PromptEntry {
  const shape = (options.arguments ?? {}) as Args;
  const schema = z.object(shape);
  const promptArguments: PromptArgument[] = Object.entries(shape).map(([name, argument]) => ({
    name,
    ...presentFields({ description: argument.description }),
    required: !argument.safeParse(undefined).success,
  }));
  const { name, title, description, icons } = options;
  const listed = promptArguments.length ? promptArguments : undefined;
  const descriptor: Prompt = { name, description, ...presentFields({ title, icons, arguments: listed }) };
  return {
    ...entryBase(options),
    kind: "prompt",
    descriptor,
    completers: (options.complete ?? {}) as Record<string, Completer>,
    async get(args, mcp) {
      const parsed = schema.safeParse(args);
      if (!parsed.success)
        throw invalidParams(`Invalid arguments for prompt "${options.name}": ${describeIssues(parsed.error)}`);
      const value = await options.run(parsed.data, mcp);
      return isInputRequiredOutcome(value) ? value : toResult(value, options.description);
    },
  };
}
