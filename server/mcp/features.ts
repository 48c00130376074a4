/**
 * The seam through which optional features (`server/features/*`) plug into the core. A feature's
 * Nitro plugin calls these registrations at start-up; the core reads them on the first request,
 * so it never imports a feature and deleting a feature's folder leaves a core that builds.
 * Without any registration the core serves 2026-07-28 alone, observes nothing, and answers only
 * its own methods. See server/mcp/README.md, "Extending the core".
 */
import type { H3Event } from "h3";
import type { AuthInfo, Era, McpContext, RequestTarget } from "./context";
import type { ToolEntry } from "./entries";
import type { McpError } from "./errors";
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "./jsonrpc";
import type { MethodHandler, MethodResult } from "./methods/types";
import type { InputRequiredOutcome } from "./outcome";
import type { LoggingLevel, ServerCapabilities } from "./protocol";
import type { EraSelection } from "./request-meta";

/** How an MCP request ended, as the dispatcher or a refusing step recorded it (`recordOutcome`), for the observer. */
export interface RequestOutcome {
  readonly resultType?: string;
  /** A tool result with `isError: true` (a failure the model reads, not a protocol error). */
  readonly toolError?: boolean;
  readonly errorCode?: number;
  readonly errorMessage?: string;
}

/** Records how the request ended, on `event.context.mcpOutcome`, where an observer reads it once the response is complete. */
export function recordOutcome(event: H3Event, outcome: RequestOutcome): void {
  event.context.mcpOutcome = outcome;
}

/** Watches every MCP request (the observability feature: spans). Each method must let errors through unchanged. */
export interface RequestObserver {
  /** The request's JSON-RPC message was read (before any other check): e.g. its span starts. */
  read(event: H3Event, message: JsonRpcRequest): void;
  /** Runs a step of the request (reading it, dispatching it) in the request's scope, e.g. its span's context. */
  within<T>(event: H3Event, work: () => T): T;
  /** Runs one unit of work worth naming (opening a requestState, a storage operation), e.g. as a child span. */
  step<T>(name: string, attributes: Readonly<Record<string, string | number | boolean>>, work: () => Promise<T>): Promise<T>;
}

/**
 * How 2025-era requests are served (the legacy feature, which also adds that era's own methods with `addMethods`).
 * Without it, `initialize` is refused with -32022.
 */
export interface LegacyEra {
  /** The 2025 versions it speaks, newest first. */
  readonly versions: readonly string[];
  /** The era (and version) of a request without the 2026 envelope; throws -32022 for a version header nobody here speaks. */
  selectEra(message: JsonRpcRequest, versionHeader: string | undefined): EraSelection;
  /** The level at which log messages are sent: without a session no `logging/setLevel` can be remembered. */
  readonly logLevel: LoggingLevel;
  /** A complete result as those revisions shape it. */
  result(result: Record<string, unknown>): Record<string, unknown>;
  /**
   * What a handler's "ask first" becomes in that era: the result (or error) of the whole request. `retry` runs the
   * request again with answers, exactly as a 2026-07-28 retry would (the state sealed, then opened and, single use,
   * claimed), and returns what the handler returned.
   */
  inputRequired(mcp: McpContext, outcome: InputRequiredOutcome, retry: Retry): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** An error as the negotiated revision words it. */
  error(error: McpError): McpError;
  /** A notification or response the client POSTed: answered here (202, or its refusal), or undefined to leave it to the core. */
  receive(event: H3Event, message: JsonRpcNotification | JsonRpcResponse): Promise<void> | undefined;
}

/** Runs the request again with `inputResponses` and the state of `outcome`, as the client's retry would: what the handler returns. */
export type Retry = (outcome: InputRequiredOutcome, inputResponses: Readonly<Record<string, unknown>>) => Promise<unknown>;

/**
 * Who may call (the sign-in feature, registered only when a credential is configured: every call then needs one).
 * Without it every caller is `anonymous` and may call everything.
 */
export interface SignIn {
  /** With OAuth sign-in, where clients read how to sign in (RFC 9728 metadata); absent for static tokens alone. */
  readonly metadataUrl?: string;
  /** The caller, or undefined once it answered the refusal itself (400, 401, 503). */
  authenticate(event: H3Event): Promise<AuthInfo | undefined>;
  /** Runs before any requestState is opened, in both eras: throws a refusal when `auth` may not act on `target`. */
  authorize(auth: AuthInfo, target: RequestTarget | undefined): void;
  /** Answers `error` when it is one of this feature's refusals (e.g. from `authorize`); returns undefined for any other error. */
  refuse(event: H3Event, error: unknown): Promise<void> | undefined;
}

/** Runs the tools declared with `task` (the tasks feature): the whole tools/call, plain or as a task. */
export type TaskRunner = (tool: ToolEntry & { task: NonNullable<ToolEntry["task"]> }, args: Record<string, unknown>, mcp: McpContext) => Promise<MethodResult>;

/** Something `subscriptions/listen` can carry (the tasks feature: `notifications/tasks` for `taskIds`). */
export interface ListenSource {
  /**
   * Reads what the client asked for in `params.notifications` (throwing -32602/-32021 on a bad request, before the
   * acknowledgement), and returns what is honoured (merged into the acknowledgement's `notifications`) and the watch,
   * which sends its notifications tagged with `tag` until it is done or `mcp.signal` aborts.
   */
  open(mcp: McpContext, notifications: Readonly<Record<string, unknown>>): Promise<{ honoured: Record<string, unknown>; watch(tag: Record<string, unknown>): Promise<void> }>;
}

type Extensions = NonNullable<ServerCapabilities["extensions"]>;

const passThrough: RequestObserver = { read() {}, within: (_event, work) => work(), step: (_name, _attributes, work) => work() };

const registered: {
  observer: RequestObserver;
  legacy?: LegacyEra;
  signIn?: SignIn;
  taskRunner?: TaskRunner;
  methods: Record<Era, Map<string, MethodHandler>>;
  extensions: Record<Era, Extensions>;
  listenSources: ListenSource[];
} = { observer: passThrough, methods: { modern: new Map(), legacy: new Map() }, extensions: { modern: {}, legacy: {} }, listenSources: [] };

/** Adds methods (e.g. `tasks/get`) to the eras named (at start-up). A feature adds a method only when the capability behind it is there. */
export function addMethods(eras: readonly Era[], methods: Readonly<Record<string, MethodHandler>>): void {
  for (const era of eras) for (const [name, handler] of Object.entries(methods)) registered.methods[era].set(name, handler);
}

/** Declares an extension the server supports, in the eras named: it appears in `server/discover` (and `initialize`) capabilities. */
export function declareExtension(eras: readonly Era[], name: string, settings: Extensions[string]): void {
  for (const era of eras) registered.extensions[era][name] = settings;
}

/** Registers the runner of tools declared with `task` (at start-up). Without it, such a tool stops the server at start-up. */
export function runTasks(runner: TaskRunner): void {
  registered.taskRunner = runner;
}

/** Adds something `subscriptions/listen` can carry (at start-up). */
export function addListenSource(source: ListenSource): void {
  registered.listenSources.push(source);
}

/** Registers the one request observer (at start-up). */
export function observeRequests(observer: RequestObserver): void {
  registered.observer = observer;
}

/** Registers how 2025-era requests are served (at start-up). */
export function serveLegacyEra(era: LegacyEra): void {
  registered.legacy = era;
}

/** Registers who may call (at start-up). */
export function requireSignIn(signIn: SignIn): void {
  registered.signIn = signIn;
}

/** The registered observer, or one that runs every step as it is. */
export const useObserver = (): RequestObserver => registered.observer;

/** The 2025 era, when a feature serves it. */
export const useLegacyEra = (): LegacyEra | undefined => registered.legacy;

/** Sign-in, when configured: then every call needs a credential. */
export const useSignIn = (): SignIn | undefined => registered.signIn;

/** The methods features added to an era. */
export const addedMethods = (era: Era): ReadonlyMap<string, MethodHandler> => registered.methods[era];

/** The extensions features declared for an era. */
export const declaredExtensions = (era: Era): Extensions => registered.extensions[era];

/** The runner of task tools, when the tasks feature is there. */
export const useTaskRunner = (): TaskRunner | undefined => registered.taskRunner;

/** What `subscriptions/listen` can carry. */
export const listenSources = (): readonly ListenSource[] => registered.listenSources;

declare module "h3" {
  interface H3EventContext {
    /** How the request ended, once answered (or refused). */
    mcpOutcome?: RequestOutcome;
  }
}
