/**
 * Rate limits, counted in the shared store (`consume.ts`, GCRA: one atomic step per limit per
 * request, exact across every instance):
 *
 * - NITRO_MCP_RATE_LIMIT: every request of a caller, checked before the body is read;
 * - a definition's `rateLimit`: calls of that tool, prompt or resource by a caller, checked from the
 *   mirrored `Mcp-Method`/`Mcp-Name` headers before the body is read where a client sends them
 *   (2026-07-28), and from the body otherwise (2025-era clients), once either way.
 *
 * Past a limit: HTTP 429, `Retry-After`, and the JSON-RPC error RATE_LIMITED; nothing runs. A store
 * fault serves the request unlimited (`open`, the default) or refuses it with 503 (`closed`).
 */
import type { H3Event } from "h3";
import type { Entry } from "../../mcp/entries";
import { McpError } from "../../mcp/errors";
import { decodeHeaderValue, requestHeader } from "../../mcp/request-meta";
import type { MessageCheck, Refusal, RequestCheck } from "../../mcp/features";
import { type JsonRpcRequest, nameFieldOf } from "../../mcp/protocol";
import { logInfo, logWarning } from "../../mcp/log";
import { resolveTarget } from "../../mcp/read-request";
import { StorageUnavailableError, useSelectedStorage } from "../../mcp/atomic-store";
import { digestKeySegment } from "../../mcp/storage-keys";
import { consumerFor, type Consume } from "./consume";
import { parseRate, type Rate } from "./rate";

/*
 * Whom a request is counted against: the signed-in principal (issuer and subject), the static
 * token's principal, or, for an anonymous caller, its address. The address is the platform's own
 * (the socket on Node; `CF-Connecting-IP`, set by Cloudflare's edge, on Workers only: elsewhere a
 * client could send it), and `X-Forwarded-For` only when NITRO_MCP_TRUST_PROXY says how many
 * proxies append to it: each appends the address it was reached from, so with N trusted proxies the
 * client is the Nth entry from the right, and everything left of it is whatever the client wrote.
 */
/** workerd says so in `navigator.userAgent`; Node says "Node.js/…" (or has no navigator). */
const ON_WORKERS = globalThis.navigator?.userAgent === "Cloudflare-Workers";

/** The client's address as the platform or the trusted proxies give it ("unknown" when none does: all such callers share one budget). */
function clientAddress(event: H3Event, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const hops = (requestHeader(event, "x-forwarded-for") ?? "")
      .split(",")
      .map((hop) => hop.trim())
      .filter(Boolean);
    // Fewer entries than trusted proxies: the request did not come through them all, so the header proves nothing.
    if (hops.length >= trustedProxies) return hops[hops.length - trustedProxies]!;
  }
  if (ON_WORKERS) return requestHeader(event, "cf-connecting-ip") ?? "unknown";
  return event.node.req.socket?.remoteAddress ?? "unknown";
}

/** The caller as text: kinds are prefixed, so no principal can pass for an address. */
function callerOf(event: H3Event, trustedProxies: number): string {
  const auth = event.context.mcpAuth;
  return auth && auth.via !== "anonymous"
    ? `principal:${auth.principal}`
    : `address:${clientAddress(event, trustedProxies)}`;
}

/**
 * The JSON-RPC code of a refusal for exceeding a rate limit. Neither JSON-RPC nor MCP 2026-07-28
 * defines one, so it is taken from the range JSON-RPC leaves to servers (-32000 to -32099), clear
 * of the codes the spec and its extensions use (-32020, -32021, -32022, -32042) and of the -32000
 * and -32001 SDKs use for closed connections and timeouts; 29 echoes HTTP 429.
 */
export const RATE_LIMITED = -32029;

declare module "h3" {
  interface H3EventContext {
    /** Set by the rate limit's request check: whom it counted, and the definition it counted from the headers. */
    rateLimit?: { readonly caller: string; readonly counted?: Entry };
  }
}

export interface RateLimitOptions {
  /** Every request of a caller; undefined: none. */
  readonly global?: Rate;
  readonly trustedProxies: number;
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

function refusal(rate: Rate, what: string, retryAfterMs: number): Refusal {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return {
    error: new McpError(
      RATE_LIMITED,
      `Rate limit exceeded (${what}): at most ${rate.limit} per ${windowText(rate.windowMs)}; retry after ${seconds} s`,
      { retryAfterMs, limit: rate.limit, windowMs: rate.windowMs },
      429,
    ),
    headers: { "retry-after": String(seconds) },
  };
}

/** The checks to register, or none when nothing is limited. */
export function rateLimitChecks(options: RateLimitOptions): { request?: RequestCheck; message?: MessageCheck } {
  const rates = new Map(
    options.entries.map(
      (entry) => [entry, parseRate(entry.rateLimit!, `rateLimit of ${entry.kind} "${entry.descriptor.name}"`)] as const,
    ),
  );
  if (!options.global && !rates.size) return {};
  let failing = false;
  // The store is mounted at start-up, maybe after this plugin: read on the first request.
  let counter: Consume | undefined;

  /** One request counted under `scope`; a store fault answered as configured. */
  async function consume(caller: string, scope: string, rate: Rate): Promise<number | undefined> {
    const key = await storeKey(caller, scope);
    try {
      counter ??= consumerFor(useSelectedStorage());
      if (!counter) throw new StorageUnavailableError("consume", new Error("the store has no atomic operations"));
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

  async function limitDefinition(caller: string, entry: Entry | undefined): Promise<Refusal | undefined> {
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

  const request: RequestCheck = async (event) => {
    const caller = callerOf(event, options.trustedProxies);
    const counted = rates.size ? headerTarget(event) : undefined;
    event.context.rateLimit = { caller, counted };
    if (options.global) {
      const retryAfterMs = await consume(caller, "*", options.global);
      if (retryAfterMs !== undefined) return refusal(options.global, "requests", retryAfterMs);
    }
    return limitDefinition(caller, counted);
  };

  // Counted here only when the headers did not already name this definition (absent, or naming another:
  // a 2026-07-28 request is then refused -32020, a 2025-era one is served, and counted here).
  const message: MessageCheck = (event, body: JsonRpcRequest) => {
    const entry = resolveTarget(body.method, body.params)?.entry;
    const counted = event.context.rateLimit;
    if (!counted || !entry || counted.counted === entry) return undefined;
    return limitDefinition(counted.caller, entry);
  };

  return { request, ...(rates.size ? { message } : {}) };
}
