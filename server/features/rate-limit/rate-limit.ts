/**
 * Rate limits, counted in the shared store (its rate counter, `server/storage/<store>/counter.ts`, GCRA: one atomic step
 * per limit per request, exact across every instance):
 *
 * - NITRO_MCP_RATE_LIMIT: every request of a caller (GET streams included), counted from the mirrored `Mcp-Method`
 *   header before the body is read where a client sends it (2026-07-28), from the body otherwise (2025-era clients): a
 *   body that never says (it fails to parse, is too large or too slow) counts against every budget, and once every budget
 *   refuses a caller, its bodies are refused unread (as far as this instance has seen the refusals);
 * - NITRO_MCP_RATE_LIMIT_CONNECT, with it: the requests a host makes to connect (CONNECT_METHODS) have a budget of their own,
 *   so that a caller's tool calls cannot starve its own reconnection, and the handshake cannot be used for unlimited calls;
 * - NITRO_MCP_RATE_LIMIT_COMPLETION, on by default: `completion/complete`, which the spec requires to be rate limited (a
 *   client may ask on every keystroke, and each answer can disclose values), on top of the rest, counted around its
 *   dispatch, from the body for every era, so that no other request pays for it;
 * - a definition's `rateLimit`: calls of that tool, prompt or resource by a caller, checked from the
 *   mirrored `Mcp-Method`/`Mcp-Name` headers before the body is read where a client sends them
 *   (2026-07-28), and from the body otherwise (2025-era clients), once either way.
 *
 * Whom a request counts against is the core's caller key (`McpContext.caller`: a principal, or an anonymous caller's address).
 * Past a limit: HTTP 429, `Retry-After`, and the JSON-RPC error 429 (`ErrorCode.LimitExceeded`); nothing runs. A store
 * fault serves the request unlimited (`open`, the default) or refuses it with 503 (`closed`).
 */
import type { H3Event } from "h3";
import {
  StorageUnavailableError,
  callerKey,
  decodeHeaderValue,
  digestKeySegment,
  limitExceeded,
  logInfo,
  logWarning,
  nameFieldOf,
  requestHeader,
  resolveTarget,
  useStore,
  type Entry,
  type JsonRpcMessage,
  type McpError,
  type MessageCheck,
  type Middleware,
  type RequestCheck,
} from "../../mcp/kit";
import { parseRate, type Rate } from "./rate";

/** The method NITRO_MCP_RATE_LIMIT_COMPLETION counts. */
export const COMPLETION = "completion/complete";

/**
 * What a host sends to connect (and to reconnect), with the GET stream a 2025-era host opens: counted apart from the rest when
 * NITRO_MCP_RATE_LIMIT_CONNECT is set.
 */
export const CONNECT_METHODS: ReadonlySet<string> = new Set([
  "initialize",
  "notifications/initialized",
  "ping",
  "logging/setLevel",
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
]);

declare module "../../mcp/kit" {
  interface DefinitionOptions {
    /**
     * At most this many calls per caller (principal, or address) across every instance, e.g. `"10/60s"` (ms, s, m, h): past
     * it a call gets 429 and runs nothing. A malformed rate stops the start-up.
     */
    readonly rateLimit?: string;
  }
}

declare module "h3" {
  interface H3EventContext {
    /**
     * Set by the rate limit's request check: the definition it counted from the headers, whether the request itself is
     * still to be counted once its body says what it is (no `Mcp-Method` header), and whether its header said it connects.
     */
    rateLimit?: { readonly counted?: Entry; pending: boolean; readonly connecting: boolean };
  }
}

export interface RateLimitOptions {
  /** Every request of a caller; undefined: none. */
  readonly global?: Rate;
  /** With `global`, the CONNECT_METHODS' own budget; undefined: they count against `global` like the rest. */
  readonly connect?: Rate;
  /** `completion/complete`'s own budget, on top of `global`; undefined: none. */
  readonly completion?: Rate;
  readonly onStoreError: "open" | "closed";
  /** The definitions (with `rateLimit`) to limit. */
  readonly entries: readonly Entry[];
}

/** Keys already hashed, by caller and scope: a SHA-256 per request is a measurable part of the limit's cost. Emptied when full. */
const KEY_CACHE_SIZE = 10_000;
const keys = new Map<string, string>();

async function storeKey(caller: string, scope: string): Promise<string> {
  const text = `${caller}\n${scope}`;
  let key = keys.get(text);
  if (key === undefined) {
    key = `ratelimit:${await digestKeySegment(text)}`;
    if (keys.size >= KEY_CACHE_SIZE) keys.clear();
    keys.set(text, key);
  }
  return key;
}

/** A budget of requests: the key it is counted under, its rate, and what its refusal calls it. */
interface Budget {
  readonly scope: string;
  readonly rate: Rate;
  readonly what: string;
}

const windowText = (windowMs: number) => (windowMs % 1000 ? `${windowMs} ms` : `${windowMs / 1000} s`);

function refusal(rate: Rate, what: string, retryAfterMs: number): McpError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return limitExceeded(
    `Rate limit exceeded (${what}): at most ${rate.limit} per ${windowText(rate.windowMs)}; retry after ${seconds} s`,
    { retryAfterMs, limit: rate.limit, windowMs: rate.windowMs },
    { "retry-after": String(seconds) },
  );
}

/** The checks to register, or none when nothing is limited; `completion` wraps the dispatch of `completion/complete`. */
export function rateLimitChecks(options: RateLimitOptions): {
  request?: RequestCheck;
  message?: MessageCheck;
  end?: (event: H3Event) => void;
  completion?: Middleware;
} {
  const rates = new Map(
    options.entries.map(
      (entry) =>
        [entry, parseRate(entry.options.rateLimit!, `rateLimit of ${entry.kind} "${entry.descriptor.name}"`)] as const,
    ),
  );
  // Limits counted per request (before the body where the headers say, else once it is read), or on completion only.
  const perRequest = !!options.global || rates.size > 0;
  if (!perRequest && !options.completion) return {};
  let failing = false;

  /** One request counted under `scope`; a store fault answered as configured. */
  async function consume(caller: string, scope: string, rate: Rate): Promise<number | undefined> {
    const key = await storeKey(caller, scope);
    try {
      const counter = useStore()?.ports.counter;
      if (!counter) throw new StorageUnavailableError("count", new Error("the store has no rate counter"));
      const { allowed, retryAfterMs } = await counter(key, rate.limit, rate.windowMs);
      if (failing) logInfo("rate limit: the store counts again");
      failing = false;
      return allowed ? undefined : retryAfterMs;
    } catch (error) {
      if (options.onStoreError === "closed" || !(error instanceof StorageUnavailableError)) throw error;
      if (!failing)
        logWarning(
          `rate limit: not counting while the store fails (${error.message}); requests are served unlimited (NITRO_MCP_RATE_LIMIT_ON_STORE_ERROR=open)`,
        );
      failing = true;
      return undefined;
    }
  }

  /** One request counted against a budget of its own kind (a definition's, completion's): refused past it. */
  async function limitBudget(caller: string, { scope, rate, what }: Budget): Promise<McpError | undefined> {
    const retryAfterMs = await consume(caller, scope, rate);
    return retryAfterMs === undefined ? undefined : refusal(rate, what, retryAfterMs);
  }

  async function limitDefinition(caller: string, entry: Entry | undefined): Promise<McpError | undefined> {
    const rate = entry && rates.get(entry);
    if (!entry || !rate) return undefined;
    const { kind, descriptor } = entry;
    return limitBudget(caller, {
      scope: `${kind}:${descriptor.name}`,
      rate,
      what: `calls of ${kind} ${descriptor.name}`,
    });
  }

  // Completion, counted around its dispatch (once the body is read, whatever the era): other requests pass it by unchecked.
  const completionBudget: Budget | undefined = options.completion && {
    scope: "completion",
    rate: options.completion,
    what: "completion requests",
  };
  const limitCompletion: Middleware | undefined =
    completionBudget &&
    (async (mcp, next) => {
      const refused = await limitBudget(mcp.caller, completionBudget);
      if (refused) throw refused;
      return next(mcp);
    });

  /** The definition the mirrored headers name, when they are there and well-formed. */
  function headerTarget(event: H3Event): Entry | undefined {
    const method = requestHeader(event, "mcp-method")?.trim();
    const raw = requestHeader(event, "mcp-name");
    const field = method && nameFieldOf(method);
    const name = raw === undefined ? null : decodeHeaderValue(raw);
    return field && name !== null ? resolveTarget(method, { [field]: name })?.entry : undefined;
  }

  /** The budgets of requests as such: every request's, then (with `connect`) that of the requests a host makes to connect. */
  const budgets: Budget[] = options.global
    ? [
        { scope: "*", rate: options.global, what: "requests" },
        ...(options.connect ? [{ scope: "connect", rate: options.connect, what: "requests to connect" }] : []),
      ]
    : [];
  /** The budget a request counts against (`connecting`: one of the requests a host makes to connect). */
  const budgetOf = (connecting: boolean) => (connecting && budgets[1]) || budgets[0]!;
  // Per instance, until when each caller's budgets refused it last ("caller\nscope"): emptied when full.
  const refusedUntil = new Map<string, number>();

  /** The request counted against `budget`. */
  async function limitRequests(caller: string, { scope, rate, what }: Budget): Promise<McpError | undefined> {
    const retryAfterMs = await consume(caller, scope, rate);
    if (retryAfterMs === undefined) return undefined;
    if (refusedUntil.size >= KEY_CACHE_SIZE) refusedUntil.clear();
    refusedUntil.set(`${caller}\n${scope}`, Date.now() + retryAfterMs);
    return refusal(rate, what, retryAfterMs);
  }

  /**
   * A request whose body alone says which budget it is for, refused unread while every budget it could be for refuses its
   * caller: past them, a caller has no body read (and parsed) at all.
   */
  function refusedUnread(caller: string): McpError | undefined {
    const now = Date.now();
    const [first] = budgets;
    const waits = budgets.map(({ scope }) => (refusedUntil.get(`${caller}\n${scope}`) ?? 0) - now);
    if (!first || waits.some((wait) => wait <= 0)) return undefined;
    return refusal(first.rate, budgets.map(({ what }) => what).join(", and "), Math.min(...waits));
  }

  /** A request whose body never said what it is (it failed to parse, was too large or too slow): counted against every budget. */
  async function countUnread(caller: string): Promise<void> {
    for (const budget of budgets) await limitRequests(caller, budget);
  }

  // Whom a request counts against, worked out only when something is counted.
  const callerOf = (event: H3Event) => callerKey(event, event.context.mcpAuth);

  const request: RequestCheck = async (event) => {
    const named = rates.size ? headerTarget(event) : undefined;
    const counted = named && rates.has(named) ? named : undefined;
    const method = requestHeader(event, "mcp-method")?.trim();
    // A GET is a 2025-era host's stream, which it opens as it connects.
    const connecting = event.method === "GET" || (method !== undefined && CONNECT_METHODS.has(method));
    // A POST without the mirrored method (a 2025-era client) is counted once its body is read; any other request now.
    const pending = !!options.global && event.method === "POST" && method === undefined;
    event.context.rateLimit = { counted, pending, connecting };
    if (pending) {
      const refused = refusedUnread(callerOf(event));
      if (refused) {
        // Answered unread: nothing left to count when it ends.
        event.context.rateLimit.pending = false;
        return refused;
      }
    } else if (options.global) {
      const refused = await limitRequests(callerOf(event), budgetOf(connecting));
      if (refused) return refused;
    }
    return counted && limitDefinition(callerOf(event), counted);
  };

  // A definition is counted here only when the headers did not already name it (absent, or naming another: a 2026-07-28
  // request is then refused -32020, a 2025-era one is served, and counted here). So is a request whose header said it
  // connects while its body is something else: it counts against the requests' budget as well.
  const message: MessageCheck = async (event, body: JsonRpcMessage) => {
    const counting = event.context.rateLimit;
    if (!counting) return undefined;
    const connecting = body.kind !== "response" && CONNECT_METHODS.has(body.method);
    if (counting.pending || (counting.connecting && !connecting && options.connect)) {
      counting.pending = false;
      const refused = await limitRequests(callerOf(event), budgetOf(connecting));
      if (refused) return refused;
    }
    const entry = body.kind === "request" ? resolveTarget(body.method, body.params)?.entry : undefined;
    if (!entry || counting.counted === entry || !rates.has(entry)) return undefined;
    return limitDefinition(callerOf(event), entry);
  };

  // A request still pending when it ends had a body that never said what it is (or was refused before it could).
  const end = (event: H3Event): void => {
    if (!event.context.rateLimit?.pending) return;
    const counting = countUnread(callerOf(event)).catch((error: unknown) =>
      logWarning(`rate limit: a request could not be counted (${String(error)})`),
    );
    event.waitUntil(counting);
  };

  return perRequest ? { request, message, end, completion: limitCompletion } : { completion: limitCompletion };
}
