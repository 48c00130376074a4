/** The seam features plug into: plugins register at start-up, the core reads it from the first request on, never importing a feature. */
import type { H3Event } from "h3";
import type { AuthInfo, Era, McpContext, RequestTarget } from "./context";
import type { ToolEntry } from "./entries";
import type { McpError } from "./errors";
import { sendError } from "./http/error-reply";
import type {
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  LoggingLevel,
  ServerCapabilities,
} from "./protocol";
import type { MethodHandler, MethodResult } from "./methods/types";
import type { InputRequiredOutcome } from "./outcome";
import type { EraSelection } from "./request-meta";

/** Watches every MCP request (the observability feature: spans). Each method must let errors through unchanged. */
export interface RequestObserver {
  /** The request's JSON-RPC message was read (before any other check): e.g. its span starts. */
  read(event: H3Event, message: JsonRpcRequest): void;
  /** Runs a step of the request (reading it, dispatching it) in the request's scope, e.g. its span's context. */
  within<T>(event: H3Event, work: () => T): T;
  /** Runs one unit of work worth naming (opening a requestState, a storage operation), e.g. as a child span. */
  step<T>(
    name: string,
    attributes: Readonly<Record<string, string | number | boolean>>,
    work: () => Promise<T>,
  ): Promise<T>;
}

/** How 2025-era requests are served (the legacy feature, which adds that era's own methods with `addMethods`). */
export interface LegacyEra {
  /** The 2025 versions it speaks, newest first. */
  readonly versions: readonly string[];
  /** The era (and version) of a request without the 2026 envelope; throws -32022 for a version header nobody here speaks. */
  selectEra(message: JsonRpcRequest, versionHeader: string | undefined): EraSelection;
  /** The level at which log messages are sent: without a session no `logging/setLevel` can be remembered. */
  readonly logLevel: LoggingLevel;
  /** A complete result as those revisions shape it. */
  result(result: Record<string, unknown>): Record<string, unknown>;
  /** A handler's "ask first", answered in full in that era; `retry` runs the request with answers as a 2026-07-28 retry would. */
  inputRequired(
    mcp: McpContext,
    outcome: InputRequiredOutcome,
    retry: Retry,
  ): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** An error as the negotiated revision words it. */
  error(error: McpError): McpError;
  /** What the client of this request can be asked: its `mcp.clientCapabilities` (the session's, when it can be asked at all). */
  askable(event: H3Event): Readonly<Record<string, unknown>>;
  /** Before any state opens, for a request without the 2026 envelope: the session it presents, opened, or its refusal (404). */
  openSession(event: H3Event, message: JsonRpcRequest): Promise<Refusal | undefined>;
  /** A notification or response the client POSTed: answered here (202, or its refusal), or undefined to leave it to the core. */
  receive(event: H3Event, message: JsonRpcNotification | JsonRpcResponse): Promise<void> | undefined;
}

/** Runs the request again with `inputResponses` and the state of `outcome`, as the client's retry would: what the handler returns. */
export type Retry = (
  outcome: InputRequiredOutcome,
  inputResponses: Readonly<Record<string, unknown>>,
) => Promise<unknown>;

/** Who may call (the sign-in feature, registered only when a credential is configured: every call then needs one). */
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

/** A check's refusal (JSON-RPC error, status, headers): request checks run before the body is read, message checks before state opens. */
export interface Refusal {
  readonly error: McpError;
  readonly headers?: Record<string, string>;
}
type Verdict = Refusal | undefined | Promise<Refusal | undefined>;
export type RequestCheck = (event: H3Event) => Verdict;
/** Runs on every message read (requests, and the notifications and responses a 2025-era client POSTs). */
export type MessageCheck = (event: H3Event, message: JsonRpcMessage) => Verdict;

/** Runs the tools declared with `task` (the tasks feature): the whole tools/call, plain or as a task. */
export type TaskRunner = (
  tool: ToolEntry & { task: NonNullable<ToolEntry["task"]> },
  args: Record<string, unknown>,
  mcp: McpContext,
) => Promise<MethodResult>;

/** Something `subscriptions/listen` can carry (the message bus feature: resource updates; the tasks feature: `notifications/tasks`). */
export interface ListenSource {
  /** Reads what the client asked for in `params.notifications`, throwing -32602/-32021 on a bad request (before the acknowledgement). */
  open(mcp: McpContext, notifications: Readonly<Record<string, unknown>>): Promise<OpenedListen>;
}

export interface OpenedListen {
  /** Merged into the acknowledgement's `notifications`. */
  readonly honoured: Record<string, unknown>;
  /** Sends its notifications tagged with `tag` until it is done, `deadline` (ms since the epoch) passes, or `mcp.signal` aborts. */
  watch(tag: Record<string, unknown>, deadline: number): Promise<void>;
  /** Lets go of what `open` holds (bus subscriptions) when another source refused the request: `watch` will not run. */
  close?(): void;
}

/** A feature's answer to `GET /mcp` (or its promise), or undefined, synchronously, to leave it to the next responder. */
export type GetResponder = (event: H3Event) => unknown;

type Extensions = NonNullable<ServerCapabilities["extensions"]>;

const passThrough: RequestObserver = {
  read() {},
  within: (_event, work) => work(),
  step: (_name, _attributes, work) => work(),
};

const registered: {
  observer: RequestObserver;
  legacy?: LegacyEra;
  signIn?: SignIn;
  taskRunner?: TaskRunner;
  methods: Record<Era, Map<string, MethodHandler>>;
  extensions: Record<Era, Extensions>;
  listenSources: ListenSource[];
  getResponders: GetResponder[];
  subscribableEras: Set<Era>;
  requestChecks: RequestCheck[];
  messageChecks: MessageCheck[];
} = {
  observer: passThrough,
  methods: { modern: new Map(), legacy: new Map() },
  extensions: { modern: {}, legacy: {} },
  listenSources: [],
  getResponders: [],
  subscribableEras: new Set(),
  requestChecks: [],
  messageChecks: [],
};

/** Adds methods (e.g. `tasks/get`) to the eras named; a feature adds a method only when the capability behind it is there. */
export function addMethods(eras: readonly Era[], methods: Readonly<Record<string, MethodHandler>>): void {
  for (const era of eras)
    for (const [name, handler] of Object.entries(methods)) registered.methods[era].set(name, handler);
}
/** An extension listed in `server/discover` (and `initialize`) capabilities, in the eras named. */
export function declareExtension(eras: readonly Era[], name: string, settings: Extensions[string]): void {
  for (const era of eras) registered.extensions[era][name] = settings;
}
export function addRequestChecks(checks: { request?: RequestCheck; message?: MessageCheck }): void {
  if (checks.request) registered.requestChecks.push(checks.request);
  if (checks.message) registered.messageChecks.push(checks.message);
}
export const addListenSource = (source: ListenSource): void => void registered.listenSources.push(source);
export const addGetResponder = (responder: GetResponder): void => void registered.getResponders.push(responder);
/** The era honours resource subscriptions (2026-07-28's listen, the 2025 era's `resources/subscribe`): declared when a message bus carries them. */
export const offerResourceSubscriptions = (era: Era): void => void registered.subscribableEras.add(era);
export const runTasks = (runner: TaskRunner): void => {
  registered.taskRunner = runner;
};
export const observeRequests = (observer: RequestObserver): void => {
  registered.observer = observer;
};
export const serveLegacyEra = (era: LegacyEra): void => {
  registered.legacy = era;
};
export const requireSignIn = (signIn: SignIn): void => {
  registered.signIn = signIn;
};

export const useObserver = (): RequestObserver => registered.observer;
export const useLegacyEra = (): LegacyEra | undefined => registered.legacy;
export const useSignIn = (): SignIn | undefined => registered.signIn;
export const useTaskRunner = (): TaskRunner | undefined => registered.taskRunner;
export const addedMethods = (era: Era): ReadonlyMap<string, MethodHandler> => registered.methods[era];
export const declaredExtensions = (era: Era): Extensions => registered.extensions[era];
export const listenSources = (): readonly ListenSource[] => registered.listenSources;
export const getResponders = (): readonly GetResponder[] => registered.getResponders;
export const offersResourceSubscriptions = (era: Era): boolean => registered.subscribableEras.has(era);

const ANONYMOUS: AuthInfo = { principal: "anonymous", via: "anonymous", scopes: [] };

/** Step of `POST /mcp`: the caller on `event.context.mcpAuth` (sign-in decides, and answers its refusals: 400, 401, 503), else `anonymous`. */
export async function authenticate(event: H3Event): Promise<void> {
  const auth = registered.signIn ? await registered.signIn.authenticate(event) : ANONYMOUS;
  if (auth) event.context.mcpAuth = auth;
}

/** Step of `POST /mcp` after `authenticate`: the request checks, in order, until one refuses. */
export async function runRequestChecks(event: H3Event): Promise<void> {
  try {
    for (const check of registered.requestChecks) {
      const refusal = await check(event);
      if (refusal) return sendError(event, undefined, refusal.error, refusal.headers);
    }
  } catch (error) {
    return sendError(event, undefined, error);
  }
}

/** The first refusal of the message checks (called by `readMcpRequest`, which answers what they throw). */
export async function runMessageChecks(event: H3Event, message: JsonRpcMessage): Promise<Refusal | undefined> {
  for (const check of registered.messageChecks) {
    const refusal = await check(event, message);
    if (refusal) return refusal;
  }
  return undefined;
}
