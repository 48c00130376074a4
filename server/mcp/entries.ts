/** What `defineTool`, `definePrompt`, `defineResource` compile to; the costly parts (JSON Schema, header scan) run once, at load. */
import type { McpContext } from "./context";
import type { HeaderParam } from "./protocol";
import { hasBrand, type InputRequiredOutcome } from "./outcome";
import type { UriTemplate } from "./uri-template";
import type {
  CacheHints,
  CallToolResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from "./protocol";

/**
 * The mark every definition carries (`entryBase` sets it): how the registry knows a definition file's default export
 * for a definition.
 * @example if (!(DEFINITION in definition)) throw new Error(`${file} must default-export defineTool(...)`);
 */
export const DEFINITION = Symbol.for("mcp-edge-template.definition");

/** Suggests values for one argument; `context` holds the arguments already filled in. */
export type Completer = (
  value: string,
  context: Readonly<Record<string, string>>,
  mcp: McpContext,
) => readonly string[] | Promise<readonly string[]>;

/**
 * Options every definition takes (`defineTool`, `definePrompt`, `defineResource`) besides its own: the core's, and those
 * optional features add by declaration merging (as h3's `H3EventContext` is extended), each validated by its feature:
 *
 * @example
 * declare module "../../mcp/kit" {
 *   interface DefinitionOptions {
 *     // Whether calls of this definition go to the audit log.
 *     readonly audited?: boolean;
 *   }
 * }
 *
 * Without the feature its option is unknown to the type checker: a definition that still sets it does not compile.
 */
export interface DefinitionOptions {
  /** Each `requestState` it issues opens once on any instance (claimed before it runs); answers need it: one confirmation, one action. */
  readonly singleUseState?: boolean;
}

/**
 * Options features add to tools only (`defineTool`), by declaration merging as `DefinitionOptions` above; `Args` is the
 * tool's validated arguments, for an option that is a function of them (declared with the same parameter and default).
 */
// biome-ignore lint/suspicious/noEmptyInterface: empty until features declare their options in it
// biome-ignore lint/correctness/noUnusedVariables: `Args` is for those options (e.g. a function of the arguments)
export interface ToolDefinitionOptions<Args = ValidArguments> {}

interface EntryBase {
  readonly [DEFINITION]: true;
  readonly singleUseState: boolean;
  /** The options the definition was given, features' included: each feature reads its own. */
  readonly options: Readonly<DefinitionOptions & ToolDefinitionOptions>;
}

/**
 * The fields every definition shares (its mark, `singleUseState`, the options features read), from its options: for a
 * feature that makes definitions of its own.
 * @example const file: ResourceEntry = { ...entryBase({}), kind: "resource", descriptor, cache, completers: {}, read };
 */
export const entryBase = (options: DefinitionOptions): EntryBase => ({
  [DEFINITION]: true,
  singleUseState: options.singleUseState ?? false,
  options,
});

/** A tool's arguments once its input schema has parsed them (unknown keys dropped, defaults filled in). */
export type ValidArguments = Readonly<Record<string, unknown>>;

export interface ToolEntry extends EntryBase {
  readonly kind: "tool";
  readonly descriptor: Tool;
  readonly headerParams: readonly HeaderParam[];
  /** Validates `args` and runs the tool once (one round of a call). */
  call(args: unknown, mcp: McpContext): Promise<CallToolResult | InputRequiredOutcome>;
  /** Its arguments validated, or the `isError` result that invalid ones get. */
  parse(args: unknown): { readonly arguments: ValidArguments } | { readonly invalid: CallToolResult };
  /** Runs one round on arguments `parse` validated, as they are: never parsed again, so every round sees the same value. */
  run(args: ValidArguments, mcp: McpContext): Promise<CallToolResult | InputRequiredOutcome>;
}

export interface PromptEntry extends EntryBase {
  readonly kind: "prompt";
  readonly descriptor: Prompt;
  readonly completers: Readonly<Record<string, Completer>>;
  get(args: unknown, mcp: McpContext): Promise<GetPromptResult | InputRequiredOutcome>;
}

export interface ResourceEntry extends EntryBase {
  readonly kind: "resource";
  readonly descriptor: Resource | ResourceTemplate;
  readonly cache: Partial<CacheHints>;
  readonly completers: Readonly<Record<string, Completer>>;
  /** For templates: the compiled `uriTemplate` (fixed resources are found by their URI). */
  readonly template?: UriTemplate;
  /** For templates: the concrete resources to show in `resources/list`. */
  list?(mcp: McpContext): Promise<readonly Resource[]>;
  read(
    uri: string,
    variables: Readonly<Record<string, string>>,
    mcp: McpContext,
  ): Promise<ReadResourceResult | InputRequiredOutcome>;
}

export type Entry = ToolEntry | PromptEntry | ResourceEntry;

export const isEntry = (value: unknown): value is Entry => hasBrand(value, DEFINITION);
