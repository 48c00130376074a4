/** What `defineTool`, `definePrompt`, `defineResource` compile to; the costly parts (JSON Schema, header scan) run once, at load. */
import type { McpContext } from "./context";
import type { HeaderParam } from "./request-meta";
import type { InputRequiredOutcome } from "./outcome";
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

export const DEFINITION = Symbol.for("mcp-edge-template.definition");

/** Suggests values for one argument; `context` holds the arguments already filled in. */
export type Completer = (
  value: string,
  context: Readonly<Record<string, string>>,
  mcp: McpContext,
) => readonly string[] | Promise<readonly string[]>;

/** What every definition may declare besides its own options (`defineTool`, `definePrompt`, `defineResource`). */
export interface EntryOptions {
  /** Each `requestState` it issues opens once on any instance (claimed before it runs); answers need it: one confirmation, one action. */
  readonly singleUseState?: boolean;
  /** With sign-in, the OAuth scopes a call needs (e.g. `["notes:write"]`), else 403 `insufficient_scope`; lists are never restricted. */
  readonly scopes?: readonly string[];
  /**
   * At most this many calls per caller (principal, or address) across every instance, e.g. `"10/60s"` (ms, s, m, h):
   * past it a call gets 429 and runs nothing. Needs the rate-limit feature: without it the server refuses to start.
   */
  readonly rateLimit?: string;
}

type EntryBase = { readonly [DEFINITION]: true } & Required<Omit<EntryOptions, "rateLimit">> &
  Pick<EntryOptions, "rateLimit">;

export const entryBase = ({ singleUseState = false, scopes = [], rateLimit }: EntryOptions): EntryBase => ({
  [DEFINITION]: true,
  singleUseState,
  scopes,
  ...(rateLimit !== undefined && { rateLimit }),
});

/** The author's data from `prepare`, handed to `run`. */
export type Prepared = Readonly<Record<string, unknown>>;

/** How a tool runs as a task (the tasks extension): see `defineTool`'s `task` option. */
export interface TaskSupport {
  readonly mode: "optional" | "required";
  /** Runs in the request, before any task: checks the arguments (invalid ones get an answer, no task), then `prepare`. */
  prepare(
    args: unknown,
    mcp: McpContext,
  ): Promise<
    | { readonly answer: CallToolResult | InputRequiredOutcome }
    | { readonly arguments: ValidArguments; readonly prepared: Prepared | undefined }
  >;
  /** Runs one round on the arguments `prepare` validated, as they are: never parsed again, so every round sees the same value. */
  run(args: ValidArguments, mcp: McpContext, prepared?: Prepared): Promise<CallToolResult | InputRequiredOutcome>;
}

/** A tool's arguments once its input schema has parsed them (unknown keys dropped, defaults filled in). */
export type ValidArguments = Readonly<Record<string, unknown>>;

export interface ToolEntry extends EntryBase {
  readonly kind: "tool";
  readonly descriptor: Tool;
  readonly headerParams: readonly HeaderParam[];
  readonly task?: TaskSupport;
  /** Validates `args` and runs the tool once (one round of a plain call; a task's rounds go through `task`). */
  call(args: unknown, mcp: McpContext): Promise<CallToolResult | InputRequiredOutcome>;
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
  /** Served (`resources/read`) but left out of `resources/list`: a skill's files other than its SKILL.md. */
  readonly unlisted?: boolean;
  /** For templates: the concrete resources to show in `resources/list`. */
  list?(mcp: McpContext): Promise<readonly Resource[]>;
  read(
    uri: string,
    variables: Readonly<Record<string, string>>,
    mcp: McpContext,
  ): Promise<ReadResourceResult | InputRequiredOutcome>;
}

export type Entry = ToolEntry | PromptEntry | ResourceEntry;

export const isEntry = (value: unknown): value is Entry =>
  typeof value === "object" && value !== null && (value as Partial<EntryBase>)[DEFINITION] === true;
