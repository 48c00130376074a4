/**
 * The hooks features plug into, each an ordered list of listeners that any number of features add to at start-up (in their
 * Nitro plugins, in plugin order: the folders' names), and the steps of `POST /mcp` that do nothing but run them. Each hook
 * says how the core calls its listeners: all of them (observers), the first that answers (authenticators, checks), or one
 * inside the other (wrappers and middleware, the first added outermost, as Hono's `(c, next)`).
 *
 * Nitro's own hookable calls listeners for their side effects, a promise each; these are read on every request and most
 * need an answer back, so each is a plain list. Features reach them through the kit (`kit.ts`), never this file.
 */
import type { H3Event } from "h3";
import { contextWith, type AuthInfo, type McpContext, type RequestMeta, type RequestTarget } from "./context";
import type { Entry, ResourceEntry } from "./entries";
import { HttpRefusal, type McpError } from "./errors";
import { sendError, type RequestOutcome } from "./http/error-reply";
import { logError } from "./log";
import type { MethodHandler, MethodResult } from "./methods/types";
import type {
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  Resource,
  ServerCapabilities,
} from "./protocol";

/** How a request ended, for observers: its HTTP status, and for an MCP request its result type or JSON-RPC error. */
export interface RequestEnd extends RequestOutcome {
  readonly status: number;
}

/** Watches every HTTP request the server answers; each method sees errors pass through unchanged. */
export interface RequestObserver {
  /** The request arrived (before any step). */
  start?(event: H3Event): void;
  /** Its JSON-RPC request was read (before any check): e.g. a span starts. */
  read?(event: H3Event, message: JsonRpcRequest): void;
  /** Its response is complete. */
  end?(event: H3Event, ended: RequestEnd): void;
}

/** Runs `work` (a step of a request: reading it, opening its state, dispatching it) in the request's scope, e.g. its trace context. */
export type ScopeWrapper = <T>(event: H3Event, work: () => T) => T;
/**
 * Runs one unit of work worth naming (opening a requestState, a storage operation), e.g. as a child span; `work` may throw.
 * Give back what `work` gives when there is nothing to wait for: an answer given at once (a store in memory) stays one.
 */
export type StepWrapper = <T>(
  name: string,
  attributes: Readonly<Record<string, string | number | boolean>>,
  work: () => T | Promise<T>,
) => T | Promise<T>;

/**
 * Who calls: an `AuthInfo`, or undefined to leave the request to the next authenticator (none: the caller is anonymous).
 * Throws to refuse (an `McpError`, or an `HttpRefusal` for a challenge such as 401 with `WWW-Authenticate`).
 */
export type Authenticator = (event: H3Event) => Promise<AuthInfo | undefined> | AuthInfo | undefined;
/** What an authenticator tells discovery documents (the server card) about signing in. */
export interface AuthenticationInfo {
  /** Calling needs a credential. */
  readonly required: boolean;
  /** Where clients read how to sign in (RFC 9728 metadata), when there is such a place. */
  readonly metadataUrl?: string;
  /** With `required`: the refusal of a caller no authenticator identified (e.g. 401 with its `WWW-Authenticate`). */
  readonly challenge?: () => Error;
}

/** A check's refusal (its JSON-RPC error, HTTP status and headers), or undefined to let the request through. */
type Verdict = McpError | undefined | Promise<McpError | undefined>;
/** Runs before the body is read. */
export type RequestCheck = (event: H3Event) => Verdict;
/** Runs on every message read: requests, and the notifications and responses a client POSTs. */
export type MessageCheck = (event: H3Event, message: JsonRpcMessage) => Verdict;
/**
 * Runs before any requestState opens, for every request: throws to refuse (e.g. a scope `mcp.target` needs). Synchronous: it
 * decides from what the request carries (`mcp.auth`, `mcp.target`); one that returns a promise refuses every request.
 */
export type Authorizer = (mcp: McpContext) => void;

/** What a handler, a middleware or the method table may answer: a result, `inputRequired(…)`, or a `finalResult(…)`. */
export type Outcome = MethodResult;
/**
 * The rest of the chain, for the request as given (a middleware may pass another, made with `contextWith(mcp, changes)`:
 * a spread `{ ...mcp }` loses the context's `signal` and `caller`, which are computed on demand).
 */
export type Next = (mcp: McpContext) => Promise<Outcome>;
/** A layer around dispatch: answers the request itself, or calls `next` and returns (or changes) what it answers. */
export type Middleware = (mcp: McpContext, next: Next) => Promise<Outcome>;

/** Something `subscriptions/listen` can carry (e.g. resource updates). */
export interface ListenSource {
  /** Reads what the client asked for in `params.notifications`, throwing -32602/-32021 on a bad request (before the acknowledgement). */
  open(mcp: McpContext, notifications: Readonly<Record<string, unknown>>): Promise<OpenedListen>;
}
export interface OpenedListen {
  /** Merged into the acknowledgement's `notifications`. */
  readonly honoured: Record<string, unknown>;
  /** Sends its notifications tagged with `tag` until it is done, `deadline` (ms since the epoch) passes, or `mcp.signal` aborts. */
  watch(tag: Record<string, unknown>, deadline: number): Promise<void>;
  /** Lets go of what `open` holds when another source refused the request: `watch` will not run. */
  close?(): void;
}

/** A feature's answer to `GET /mcp` (or its promise), or undefined, synchronously, to leave it to the next responder. */
export type GetResponder = (event: H3Event) => unknown;

/**
 * Another protocol revision served on the same endpoint (e.g. the 2025 era): it claims a request without the 2026-07-28
 * envelope and says what the core cannot read from it; a middleware of its own then shapes what the handlers answer.
 */
export interface Adapter {
  /** Its name, for the request log. */
  readonly name: string;
  /** The protocol versions it speaks, newest first (listed in `server/discover` and in -32022). */
  readonly versions: readonly string[];
  /** Claims a request without the 2026-07-28 envelope: its fields, or undefined to leave it (then refused as 2026-07-28). */
  read(event: H3Event, message: JsonRpcRequest): Promise<AdaptedFields | undefined>;
  /** A notification or response a client POSTed: answered here (202, or its refusal), or undefined to leave it to the core. */
  receive?(event: H3Event, message: JsonRpcNotification | JsonRpcResponse): Promise<void> | undefined;
  /** The outermost layer around dispatch for the requests it read: its own methods, and its revision's shapes and errors. */
  serve: Middleware;
}

/** Which requests a middleware wraps: those of these methods, on these definitions (each left out: any). */
export interface MiddlewareScope {
  readonly methods?: readonly string[];
  readonly entries?: readonly Entry[];
}
/** What an adapter reads from its request for the core (the 2026-07-28 `_meta` fields). */
export type AdaptedFields = RequestMeta;

/** Settings of an extension declared in the server's capabilities; `adapted`: also in an adapter's (its `initialize`). */
type Extensions = NonNullable<ServerCapabilities["extensions"]>;

const listeners = {
  observers: [] as RequestObserver[],
  scopes: [] as ScopeWrapper[],
  steps: [] as StepWrapper[],
  authenticators: [] as { authenticate: Authenticator; info?: AuthenticationInfo }[],
  requestChecks: [] as RequestCheck[],
  messageChecks: [] as MessageCheck[],
  authorizers: [] as Authorizer[],
  middleware: [] as { middleware: Middleware; methods?: ReadonlySet<string>; entries?: ReadonlySet<Entry> }[],
  methods: new Map<string, { handler: MethodHandler; adapted: boolean }>(),
  extensions: new Map<string, { settings: Extensions[string]; adapted: boolean }>(),
  capabilities: [] as ServerCapabilities[],
  listenSources: [] as ListenSource[],
  getResponders: [] as GetResponder[],
  adapters: [] as Adapter[],
  servedResources: [] as ServedResources[],
  describers: [] as EntryDescriber[],
};

/** `_meta` fields a feature adds to a definition's descriptor in the lists (undefined: none for this one). */
export type EntryDescriber = (entry: Entry) => Readonly<Record<string, unknown>> | undefined;

/** A resource a feature serves, and the variables its URI decodes to. */
export type ResourceFound = Pick<RequestTarget, "variables"> & { readonly entry: ResourceEntry };

/** Resources a feature serves besides the definitions (e.g. files it ships): found by URI, some of them listed. */
export interface ServedResources {
  /** The resource at `uri`, or undefined when it is not one of these. */
  find(uri: string): ResourceFound | undefined;
  /** Those to show in `resources/list`. */
  readonly listed?: readonly Resource[];
}

export const hooks = {
  observe: (observer: RequestObserver) => void listeners.observers.push(observer),
  wrapScope: (wrapper: ScopeWrapper) => void listeners.scopes.push(wrapper),
  wrapSteps: (wrapper: StepWrapper) => void listeners.steps.push(wrapper),
  authenticate: (authenticate: Authenticator, info?: AuthenticationInfo) =>
    void listeners.authenticators.push({ authenticate, info }),
  checkRequests: (check: RequestCheck) => void listeners.requestChecks.push(check),
  checkMessages: (check: MessageCheck) => void listeners.messageChecks.push(check),
  authorize: (authorizer: Authorizer) => void listeners.authorizers.push(authorizer),
  use(middleware: Middleware, scope: MiddlewareScope = {}) {
    const methods = scope.methods && new Set(scope.methods);
    const entries = scope.entries && new Set(scope.entries);
    listeners.middleware.push({ middleware, methods, entries });
  },
  addMethods(methods: Readonly<Record<string, MethodHandler>>, options: { adapted?: boolean } = {}) {
    for (const [name, handler] of Object.entries(methods)) {
      if (listeners.methods.has(name)) throw new Error(`Two features add the method ${name}`);
      listeners.methods.set(name, { handler, adapted: !!options.adapted });
    }
  },
  declareExtension(name: string, settings: Extensions[string], options: { adapted?: boolean } = {}) {
    listeners.extensions.set(name, { settings, adapted: !!options.adapted });
  },
  declareCapabilities: (capabilities: ServerCapabilities) => void listeners.capabilities.push(capabilities),
  addListenSource: (source: ListenSource) => void listeners.listenSources.push(source),
  addGetResponder: (responder: GetResponder) => void listeners.getResponders.push(responder),
  addAdapter: (adapter: Adapter) => void listeners.adapters.push(adapter),
  serveResources: (served: ServedResources) => void listeners.servedResources.push(served),
  describeEntries: (describer: EntryDescriber) => void listeners.describers.push(describer),
};

// ——— what the core reads ———

/** A list or a map, read only. */
type ReadView<T> = T extends Map<infer Key, infer Value> ? ReadonlyMap<Key, Value> : Readonly<T>;
/** Every hook's listeners, in the order added, as the core reads them: only `hooks` adds to them. */
export const registered: { readonly [Hook in keyof typeof listeners]: ReadView<(typeof listeners)[Hook]> } = listeners;

/** A definition's descriptor as the lists show it: its own `_meta` and then what each describer adds, the last one winning. */
export function listedDescriptor<Descriptor extends { _meta?: Record<string, unknown> }>(
  entry: Entry & { readonly descriptor: Descriptor },
): Descriptor {
  const added = listeners.describers.map((describe) => describe(entry)).filter((meta) => meta !== undefined);
  if (!added.length) return entry.descriptor;
  return { ...entry.descriptor, _meta: Object.assign({}, entry.descriptor._meta, ...added) };
}

/**
 * Each authenticator's word on signing in (for discovery documents); empty: anyone may call.
 * @example const signIn = authenticationInfo().find((info) => info.required); // where the server card says to sign in
 */
export const authenticationInfo = (): readonly AuthenticationInfo[] =>
  listeners.authenticators.flatMap(({ info }) => (info ? [info] : []));

/** `work` inside every scope wrapper, the first added outermost. */
export const inRequestScope = <T>(event: H3Event, work: () => T): T =>
  listeners.scopes.reduceRight<() => T>((inner, scope) => () => scope(event, inner), work)();

/** `work` as a named step inside every step wrapper, the first added outermost. */
export const runStep: StepWrapper = (name, attributes, work) =>
  listeners.steps.reduceRight((inner: typeof work, step) => () => step(name, attributes, inner), work)();

/** The chain of middleware around `last` (the method table): the first added outermost, each only on the requests in its scope. */
export function chainAround(last: Next): Next {
  return listeners.middleware.reduceRight<Next>(
    (next, { middleware, methods, entries }) =>
      (mcp) =>
        (methods && !methods.has(mcp.method)) || (entries && !entries.has(mcp.target?.entry as Entry))
          ? next(mcp)
          : middleware(mcp, next),
    last,
  );
}

/**
 * Calls `moment` of every observer, in order: one that throws is logged, and the others and the request go on as if it
 * had not been there (a broken audit log must not take the request log, or the request, with it).
 */
export function tellObservers(moment: keyof RequestObserver, event: H3Event, detail?: unknown): void {
  for (const observer of listeners.observers) {
    try {
      (observer[moment] as ((event: H3Event, detail: unknown) => void) | undefined)?.(event, detail);
    } catch (error) {
      logError(`A request observer's ${moment} failed`, error);
    }
  }
}

/** Calls every observer's `start` (Nitro's `request` hook). */
export const observeStart = (event: H3Event): void => tellObservers("start", event);

/** Calls every observer's `end` with how the request ended (Nitro's `afterResponse` hook). */
export function observeEnd(event: H3Event): void {
  if (listeners.observers.length === 0) return;
  tellObservers("end", event, { status: event.node.res.statusCode, ...event.context.mcpOutcome } satisfies RequestEnd);
}

// ——— the steps of POST /mcp that run a hook ———

/**
 * A route's handler: `steps` in order, each letting the request through or answering it, then `handler`. Unlike h3's
 * `onRequest`, which awaits every step, a step that returns no promise costs the request no microtask.
 * @example
 * export default defineEventHandler(inSteps([guardOriginAndHost, authenticate], async (event) => answer(event)));
 */
export const inSteps =
  <Answer>(
    steps: readonly ((event: H3Event) => Promise<void> | void)[],
    handler: (event: H3Event) => Promise<Answer>,
  ) =>
  async (event: H3Event): Promise<Answer | undefined> => {
    for (const step of steps) {
      const running = step(event);
      if (running) await running;
      if (event.handled) return;
    }
    // Awaited: an async function that returns a promise waits two more microtasks for it.
    return await handler(event);
  };

/**
 * The caller no authenticator identified: one object for every such request, not one each, so frozen (no request's code
 * may change what the next anonymous caller may do).
 */
const ANONYMOUS: AuthInfo = Object.freeze({ principal: "anonymous", via: "anonymous", scopes: Object.freeze([]) });

/**
 * Step: the caller on `event.context.mcpAuth`, from the first authenticator that identifies it, or its refusal. Nobody
 * identified it: the challenge of the first authenticator that requires a credential, else `anonymous`.
 * @example
 * await authenticate(event); // a feature's own route that calls as POST /mcp does
 * if (!event.context.mcpAuth) return; // refused (401), and already answered
 */
export function authenticate(event: H3Event): Promise<void> | void {
  // Without authenticators, anonymous at once: a step that returns no promise costs the request no microtask.
  if (listeners.authenticators.length === 0) event.context.mcpAuth = ANONYMOUS;
  else return identify(event);
}

async function identify(event: H3Event): Promise<void> {
  try {
    for (const { authenticate } of listeners.authenticators) {
      const auth = await authenticate(event);
      if (auth) {
        // A fork's authenticator that names nobody would make its callers one nameless caller: refused, not served.
        if (typeof auth.principal !== "string" || !auth.principal) throw new Error("Authenticator gave no principal");
        event.context.mcpAuth = auth;
        return;
      }
    }
    const required = listeners.authenticators.find(({ info }) => info?.required)?.info;
    if (required) throw required.challenge?.() ?? new HttpRefusal(401, {}, "", "Authentication required");
    event.context.mcpAuth = ANONYMOUS;
  } catch (error) {
    return sendError(event, undefined, error);
  }
}

/**
 * Step, after `authenticate`: the request checks, in order, until one refuses (before the body is read).
 * @example
 * await runRequestChecks(event); // a stream a feature opens counts against the rate limit too
 * if (event.handled) return; // refused (429), and already answered
 */
export function runRequestChecks(event: H3Event): Promise<void> | void {
  const refused = firstRefusal(listeners.requestChecks, (check) => check(event));
  const answer = (refusal: McpError | undefined) => refusal && sendError(event, undefined, refusal);
  if (refused) return Promise.resolve(refused).then(answer, (error: unknown) => sendError(event, undefined, error));
}

/** The first refusal of the message checks (run by `readMcpRequest`, which answers what they throw). */
export const runMessageChecks = (event: H3Event, message: JsonRpcMessage): Verdict =>
  firstRefusal(listeners.messageChecks, (check) => check(event, message));

/** The first refusal of `checks`, asked in order; none at once, not as a promise, when there are no checks. */
const firstRefusal = <Check>(checks: readonly Check[], ask: (check: Check) => Verdict): Verdict =>
  checks.length > 0 ? askInTurn(checks, ask) : undefined;

async function askInTurn<Check>(checks: readonly Check[], ask: (check: Check) => Verdict) {
  for (const check of checks) {
    const refusal = await ask(check);
    if (refusal) return refusal;
  }
}

/**
 * Every authorizer on `mcp`, in order; throws the first refusal. One that returns a promise (an `async` function, which
 * TypeScript lets through where a `void` function is asked for) refuses too: its verdict would come after the request ran.
 */
function runAuthorizers(mcp: McpContext): void {
  for (const authorizer of listeners.authorizers)
    if ((authorizer(mcp) as unknown) instanceof Promise) throw new Error("An authorizer must decide synchronously");
}

/** Step, after reading: every authorizer, before any requestState opens (a refusal is answered as it is). */
export function authorize(event: H3Event): Promise<void> | void {
  try {
    runAuthorizers(event.context.mcp!);
  } catch (error) {
    return sendError(event, event.context.mcp!.id, error);
  }
}

/**
 * Whether every authorizer lets `mcp`'s caller act on `target` as `method` would (e.g. read a resource it listens to).
 * @example
 * if (!mayAct(mcp, "resources/read", servedResource(uri))) throw invalidParams("You may not read this resource");
 */
export function mayAct(mcp: McpContext, method: string, target: RequestTarget): boolean {
  try {
    runAuthorizers(contextWith(mcp, { method, target }));
    return true;
  } catch {
    return false;
  }
}
