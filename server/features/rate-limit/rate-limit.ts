/**
 * Rate limits, counted in the shared store (its rate counter, `server/storage/<store>/counter.ts`, GCRA: one atomic step
 * per limit per request, exact across every instance):
 *
 * - NITRO_MCP_RATE_LIMIT: every request of a caller (GET streams included), counted from the mirrored `Mcp-Method`
 *   header before the body is read where a client sends it (2026-07-28), from the body otherwise (2025-era clients);
 * - NITRO_MCP_RATE_LIMIT_CONNECT, with it: the requests a host makes to connect (CONNECT_METHODS) have a budget of their own,
 *   so that a caller's tool calls cannot starve its own reconnection, and the handshake cannot be used for unlimited calls.
 *   A request that names its method only in its body is then also counted before its body is read, against both budgets
 *   together: a body that fails to parse counts, and no caller past both has a body read at all;
 * - a definition's `rateLimit`: calls of that tool, prompt or resource by a caller, checked from the
 *   mirrored `Mcp-Method`/`Mcp-Name` headers before the body is read where a client sends them
 *   (2026-07-28), and from the body otherwise (2025-era clients), once either way.
 *
 * Whom a request counts against is the core's caller key (`McpContext.caller`: a principal, or an anonymous caller's address).
 * Past a limit: HTTP 429, `Retry-After`, and the JSON-RPC error -32029 (`ErrorCode.LimitExceeded`); nothing runs. A store
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
  type RequestCheck,
} from "../../mcp/kit";
import { parseRate, together, type Rate } from "./rate";

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
     * still to be counted once its body says what it is (no `Mcp-Method` header), and whether it was counted as connecting.
     */
    rateLimit?: { readonly counted?: Entry; readonly pending: boolean; readonly connecting: boolean };
  }
}

export interface RateLimitOptions {
  /** Every request of a caller; undefined: none. */
  readonly global?: Rate;
  /** With `global`, the CONNECT_METHODS' own budget; undefined: they count against `global` like the rest. */
  readonly connect?: Rate;
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

const windowText = (windowMs: number) => (windowMs % 1000 ? `${windowMs} ms` : `${windowMs / 1000} s`);

function refusal(rate: Rate, what: string, retryAfterMs: number): McpError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return limitExceeded(
    `Rate limit exceeded (${what}): at most ${rate.limit} per ${windowText(rate.windowMs)}; retry after ${seconds} s`,
    { retryAfterMs, limit: rate.limit, windowMs: rate.windowMs },
    { "retry-after": String(seconds) },
  );
}

/** The checks to register, or none when nothing is limited. */
export function rateLimitChecks(options: RateLimitOptions): { request?: RequestCheck; message?: MessageCheck } {
  const rates = new Map(
    options.entries.map(
      (entry) =>
        [entry, parseRate(entry.options.rateLimit!, `rateLimit of ${entry.kind} "${entry.descriptor.name}"`)] as const,
    ),
  );
  if (!options.global && !rates.size) return {};
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

  async function limitDefinition(caller: string, entry: Entry | undefined): Promise<McpError | undefined> {
    const rate = entry && rates.get(entry);
    if (!entry || !rate) return undefined;
    const retryAfterMs = await consume(caller, `${entry.kind}:${entry.descriptor.name}`, rate);
    return retryAfterMs === undefined
      ? undefined
      : refusal(rate, `calls of ${entry.kind} ${entry.descriptor.name}`, retryAfterMs);
  }

  /** The definition the mirrored headers name, when they are there and well-formed. */
  function headerTarget(event: H3Event): Entry | undefined {
    const method = requestHeader(event, "mcp-method")?.trim();
    const raw = requestHeader(event, "mcp-name");
    const field = method && nameFieldOf(method);
    const name = raw === undefined ? null : decodeHeaderValue(raw);
    return field && name !== null ? resolveTarget(method, { [field]: name })?.entry : undefined;
  }

  /** The request counted under `scope`, refused past `rate`. */
  async function limitRequests(caller: string, scope: string, rate: Rate, what: string): Promise<McpError | undefined> {
    const retryAfterMs = await consume(caller, scope, rate);
    return retryAfterMs === undefined ? undefined : refusal(rate, what, retryAfterMs);
  }

  /** The request counted against the budget it belongs to (`connecting`: one of the requests a host makes to connect). */
  const limitByKind = (caller: string, connecting: boolean) =>
    connecting && options.connect
      ? limitRequests(caller, "connect", options.connect, "requests to connect")
      : limitRequests(caller, "*", options.global!, "requests");

  // What a request is counted against before its body is read, when that body says which budget it is for.
  const unread = options.global && options.connect && together(options.global, options.connect);

  // Whom a request counts against, worked out only when something is counted.
  const callerOf = (event: H3Event) => callerKey(event, event.context.mcpAuth);

  const request: RequestCheck = async (event) => {
    const named = rates.size ? headerTarget(event) : undefined;
    const counted = named && rates.has(named) ? named : undefined;
    const method = requestHeader(event, "mcp-method")?.trim();
    // A GET is a 2025-era host's stream, which it opens as it connects.
    const connecting = event.method === "GET" || (method !== undefined && CONNECT_METHODS.has(method));
    // A POST without the mirrored method (a 2025-era client) says only in its body which budget it is for: counted now
    // against both together, and once its body is read against its own. With one budget, it is counted now, once.
    const pending = !!unread && event.method === "POST" && method === undefined;
    event.context.rateLimit = { counted, pending, connecting };
    if (options.global) {
      const refused = pending
        ? await limitRequests(callerOf(event), "unread", unread, "requests to connect and the rest together")
        : await limitByKind(callerOf(event), connecting);
      if (refused) return refused;
    }
    return counted && limitDefinition(callerOf(event), counted);
  };

  // A definition is counted here only when the headers did not already name it (absent, or naming another: a 2026-07-28
  // request is then refused -32020, a 2025-era one is served, and counted here). So is a request whose header said it
  // connects while its body is something else: it is counted against the budget it belongs to as well.
  const message: MessageCheck = async (event, body: JsonRpcMessage) => {
    const counting = event.context.rateLimit;
    if (!counting) return undefined;
    const connecting = body.kind !== "response" && CONNECT_METHODS.has(body.method);
    if (counting.pending || (counting.connecting && !connecting && options.connect)) {
      const refused = await limitByKind(callerOf(event), connecting);
      if (refused) return refused;
    }
    const entry = body.kind === "request" ? resolveTarget(body.method, body.params)?.entry : undefined;
    if (!entry || counting.counted === entry || !rates.has(entry)) return undefined;
    return limitDefinition(callerOf(event), entry);
  };

  return { request, message };
}
