/**
 * Every setting of the server, declared once: its variable, default, parser and meaning.
 *
 * - `nitro.config.ts` takes the defaults for Nitro's runtime config (`runtimeConfig.mcp`);
 * - `config.ts` parses the values at run time (a `NITRO_MCP_*` variable overrides its default);
 * - `tests/unit/settings.test.ts` checks `.env.example` and the table in server/mcp/README.md against this list.
 *
 * Pure data and functions: it is imported at build time, where no Nitro runtime exists.
 */

export interface Setting<T, Default extends string | number | boolean = string | number | boolean> {
  /** The environment variable (Nitro maps `NITRO_MCP_STATE_SECRET` to `runtimeConfig.mcp.stateSecret`). */
  readonly env: string;
  /** The default, as Nitro's runtime config holds it. */
  readonly default: Default;
  /** The default as the docs show it, when it is not the literal value (e.g. "package.json"). */
  readonly shownDefault?: string;
  /** One line for `.env.example` and the configuration table (server/mcp/README.md). */
  readonly doc: string;
  /**
   * Read the variable's own text: Nitro runs env values through `destr`, which turns "1.0"
   * into 1 and an all-digit secret into an imprecise number.
   */
  readonly text?: boolean;
  /** Parses the raw value; throws an Error naming the variable (never its value) when it is invalid. */
  parse(raw: unknown): T;
}

type Widen<Value> = Value extends string ? string : Value extends number ? number : boolean;
const setting = <T, Default extends string | number | boolean>(spec: Setting<T, Default>): Setting<T, Widen<Default>> =>
  spec as unknown as Setting<T, Widen<Default>>;

/** Comma-separated list; values are trimmed and empty entries dropped. */
export const parseList = (raw: unknown): string[] =>
  String(raw ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);

const text = (raw: unknown): string => String(raw ?? "");
const optionalText = (raw: unknown): string | undefined => text(raw) || undefined;

const integer = (env: string, min: number) => (raw: unknown): number => {
  const number = Number(raw);
  if (!Number.isInteger(number) || number < min) throw new Error(`${env} must be an integer >= ${min}, got "${raw}"`);
  return number;
};

const boolean = (raw: unknown): boolean => raw !== false && raw !== "false";

function parseTokenPairs(raw: unknown): { principal: string; token: string }[] {
  return parseList(raw).map((pair) => {
    const separator = pair.indexOf(":");
    const principal = pair.slice(0, separator).trim();
    const token = pair.slice(separator + 1).trim();
    // Name the position, never the value: this message may reach a log.
    if (separator <= 0 || !token) throw new Error("NITRO_MCP_AUTH_TOKENS entries must look like principal:token");
    return { principal, token };
  });
}

// feature:rate-limit
/** A rate: at most `limit` requests per `windowMs`. */
export interface Rate {
  readonly limit: number;
  readonly windowMs: number;
}

const RATE = /^([1-9][0-9]{0,8})\/([1-9][0-9]{0,9})(ms|s|m|h)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** Parses a rate like `600/60s` (units ms, s, m, h); `what` names the setting or definition in the error. */
export function parseRate(raw: string, what: string): Rate {
  const match = RATE.exec(raw.trim());
  if (!match) throw new Error(`${what} must look like 600/60s (requests/window, window in ms, s, m or h), got "${raw}"`);
  const rate = { limit: Number(match[1]), windowMs: Number(match[2]) * UNIT_MS[match[3] as keyof typeof UNIT_MS] };
  // Finer than a request per millisecond is no limit at all, and below what a time in ms counts exactly.
  if (rate.windowMs < rate.limit) throw new Error(`${what} allows at most one request per millisecond, got "${raw}"`);
  return rate;
}
// end feature:rate-limit

/** The settings under `runtimeConfig.mcp`, by key. */
export const SETTINGS = {
  serverName: setting({
    env: "NITRO_MCP_SERVER_NAME",
    default: "",
    shownDefault: "package.json name",
    doc: "Server name in server/discover and in every result's _meta",
    text: true,
    parse: text,
  }),
  serverVersion: setting({
    env: "NITRO_MCP_SERVER_VERSION",
    default: "",
    shownDefault: "package.json version",
    doc: "Server version in server/discover and in every result's _meta",
    text: true,
    parse: text,
  }),
  instructions: setting({
    env: "NITRO_MCP_INSTRUCTIONS",
    default: "",
    doc: "Natural-language instructions returned by server/discover",
    text: true,
    parse: optionalText,
  }),
  serverDescription: setting({
    env: "NITRO_MCP_SERVER_DESCRIPTION",
    default: "",
    shownDefault: "package.json description",
    doc: "What the server does, in at most 100 characters: the description in its server card",
    text: true,
    parse: (raw): string => {
      const value = text(raw);
      if (value.length > 100) throw new Error("NITRO_MCP_SERVER_DESCRIPTION must be at most 100 characters (the server card's limit)");
      return value;
    },
  }),
  serverCardName: setting({
    env: "NITRO_MCP_SERVER_CARD_NAME",
    default: "",
    shownDefault: "derived from the endpoint's host",
    doc: "The server card's name, reverse-DNS namespace/name (e.g. com.example/weather); default: the endpoint's host reversed, then the server name",
    text: true,
    parse: (raw): string | undefined => {
      const value = optionalText(raw);
      if (value !== undefined && !(value.length <= 200 && /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(value))) {
        throw new Error("NITRO_MCP_SERVER_CARD_NAME must look like com.example/name (letters, digits, dots and dashes, one slash, at most 200 characters)");
      }
      return value;
    },
  }),
  stateSecret: setting({
    env: "NITRO_MCP_STATE_SECRET",
    default: "",
    doc: "Seals requestState (AES-256-GCM), at least 32 bytes, the same on every instance; without it `npm run dev` uses a per-process key and a build cannot ask for input",
    text: true,
    parse: text,
  }),
  stateSecretPrevious: setting({
    env: "NITRO_MCP_STATE_SECRET_PREVIOUS",
    default: "",
    doc: "Comma-separated secrets from before a rotation: they open old states, never seal new ones",
    text: true,
    parse: parseList,
  }),
  stateTtlSeconds: setting({
    env: "NITRO_MCP_STATE_TTL_SECONDS",
    default: 600,
    doc: "How long a requestState stays valid, in seconds (5 s of clock skew tolerated)",
    parse: integer("NITRO_MCP_STATE_TTL_SECONDS", 1),
  }),
  stateMaxLength: setting({
    env: "NITRO_MCP_STATE_MAX_LENGTH",
    default: 16384,
    doc: "Longest requestState accepted (checked before any crypto) or issued, in characters",
    parse: integer("NITRO_MCP_STATE_MAX_LENGTH", 256),
  }),
  authTokens: setting({
    env: "NITRO_MCP_AUTH_TOKENS",
    default: "",
    doc: "Static bearer tokens as principal:token pairs; when set (or with sign-in), every request needs Authorization: Bearer <token>",
    text: true,
    parse: parseTokenPairs,
  }),
  authIssuer: setting({
    env: "NITRO_MCP_AUTH_ISSUER",
    default: "",
    doc: "The OAuth authorization server's issuer URL; setting it turns sign-in on (its metadata is discovered: RFC 8414, then OpenID)",
    text: true,
    parse: optionalText,
  }),
  resourceUrl: setting({
    env: "NITRO_MCP_RESOURCE_URL",
    default: "",
    doc: "The canonical URL of this MCP endpoint (e.g. https://mcp.example.com/mcp): the resource of the metadata and the audience every token must carry; required with NITRO_MCP_AUTH_ISSUER",
    text: true,
    parse: optionalText,
  }),
  authAudience: setting({
    env: "NITRO_MCP_AUTH_AUDIENCE",
    default: "",
    shownDefault: "NITRO_MCP_RESOURCE_URL",
    doc: "The audience tokens must carry, when the authorization server names this API by something other than its URL (an API identifier or audience tag)",
    text: true,
    parse: optionalText,
  }),
  authJwksUrl: setting({
    env: "NITRO_MCP_AUTH_JWKS_URL",
    default: "",
    doc: "Where the issuer's signing keys are; default: jwks_uri from its metadata",
    text: true,
    parse: optionalText,
  }),
  authJwksCooldownSeconds: setting({
    env: "NITRO_MCP_AUTH_JWKS_COOLDOWN_SECONDS",
    default: 30,
    doc: "After fetching the issuer's keys, how long a token with an unknown key id waits before they are fetched again (a rotation is picked up after it)",
    parse: integer("NITRO_MCP_AUTH_JWKS_COOLDOWN_SECONDS", 0),
  }),
  authScopes: setting({
    env: "NITRO_MCP_AUTH_SCOPES",
    default: "",
    doc: "Scopes advertised in the protected-resource metadata and in 401 challenges (comma-separated): what basic use needs",
    text: true,
    parse: parseList,
  }),
  authIntrospectionUrl: setting({
    env: "NITRO_MCP_AUTH_INTROSPECTION_URL",
    default: "",
    doc: "RFC 7662 introspection endpoint for opaque tokens; default: introspection_endpoint from the metadata, used when a client id is set",
    text: true,
    parse: optionalText,
  }),
  authClientId: setting({
    env: "NITRO_MCP_AUTH_CLIENT_ID",
    default: "",
    doc: "This server's client id at the authorization server, for introspection",
    text: true,
    parse: optionalText,
  }),
  authClientSecret: setting({
    env: "NITRO_MCP_AUTH_CLIENT_SECRET",
    default: "",
    doc: "This server's client secret at the authorization server, for introspection",
    text: true,
    parse: optionalText,
  }),
  allowedOrigins: setting({
    env: "NITRO_MCP_ALLOWED_ORIGINS",
    default: "",
    doc: 'Extra browser origins allowed to call the endpoint (comma-separated, e.g. https://app.example); "*" allows any',
    parse: (raw) => parseList(raw).map((origin) => origin.toLowerCase().replace(/\/$/, "")),
  }),
  allowedHosts: setting({
    env: "NITRO_MCP_ALLOWED_HOSTS",
    default: "",
    doc: "Host names the endpoint answers to (comma-separated); unset: on a loopback or private address only loopback names and IP literals",
    parse: (raw) => parseList(raw).map((host) => host.toLowerCase()),
  }),
  taskTtlSeconds: setting({
    env: "NITRO_MCP_TASK_TTL_SECONDS",
    default: 3600,
    doc: "How long a task (and its result) is kept after it is created, in seconds; then it is deleted",
    parse: integer("NITRO_MCP_TASK_TTL_SECONDS", 1),
  }),
  taskPollIntervalMs: setting({
    env: "NITRO_MCP_TASK_POLL_INTERVAL_MS",
    default: 1000,
    doc: "How often clients are asked to poll a task (pollIntervalMs), in milliseconds",
    parse: integer("NITRO_MCP_TASK_POLL_INTERVAL_MS", 1),
  }),
  taskHeartbeatTimeoutSeconds: setting({
    env: "NITRO_MCP_TASK_HEARTBEAT_TIMEOUT_SECONDS",
    default: 30,
    doc: "A working task whose instance has not reported for this long (it died, or its platform stopped it) is marked failed",
    parse: integer("NITRO_MCP_TASK_HEARTBEAT_TIMEOUT_SECONDS", 1),
  }),
  taskMaxActive: setting({
    env: "NITRO_MCP_TASK_MAX_ACTIVE",
    default: 10,
    doc: "Most tasks a principal may have working or waiting for input at once (all anonymous callers are one principal); beyond it a call that would start a task gets an isError result",
    parse: integer("NITRO_MCP_TASK_MAX_ACTIVE", 1),
  }),
  maxBodyBytes: setting({
    env: "NITRO_MCP_MAX_BODY_BYTES",
    default: 1048576,
    doc: "Largest request body, in bytes (413 above it)",
    parse: integer("NITRO_MCP_MAX_BODY_BYTES", 1024),
  }),
  bodyTimeoutMs: setting({
    env: "NITRO_MCP_BODY_TIMEOUT_MS",
    default: 10000,
    doc: "Time a client has to send the whole request body, in milliseconds (408 and the connection closed after it)",
    parse: integer("NITRO_MCP_BODY_TIMEOUT_MS", 100),
  }),
  pageSize: setting({
    env: "NITRO_MCP_PAGE_SIZE",
    default: 50,
    doc: "Items per page in tools/list, prompts/list, resources/list and resources/templates/list",
    parse: integer("NITRO_MCP_PAGE_SIZE", 1),
  }),
  listTtlMs: setting({
    env: "NITRO_MCP_LIST_TTL_MS",
    default: 60000,
    doc: "Caching hint (ttlMs) on lists and server/discover",
    parse: integer("NITRO_MCP_LIST_TTL_MS", 0),
  }),
  logFormat: setting({
    env: "NITRO_MCP_LOG_FORMAT",
    default: "auto",
    doc: "json: one JSON object per line; pretty: readable text; auto: pretty in npm run dev, json in builds",
    parse: (raw): "json" | "pretty" | "auto" => {
      const value = text(raw);
      if (value !== "json" && value !== "pretty" && value !== "auto") throw new Error('NITRO_MCP_LOG_FORMAT must be "json", "pretty" or "auto"');
      return value;
    },
  }),
  logRequests: setting({
    env: "NITRO_MCP_LOG_REQUESTS",
    default: true,
    doc: "One log line per HTTP request: method, target, outcome, status, duration (never arguments or tokens)",
    parse: boolean,
  }),
  logArguments: setting({
    env: "NITRO_MCP_LOG_ARGUMENTS",
    default: false,
    doc: "Also put each request's arguments in its log line (they may hold personal data: for development)",
    parse: boolean,
  }),
  // feature:rate-limit
  rateLimit: setting({
    env: "NITRO_MCP_RATE_LIMIT",
    default: "",
    doc: "Requests per caller across every instance, e.g. 600/60s (429 past it); unset: no limit (server/features/rate-limit)",
    text: true,
    parse: (raw): Rate | undefined => (text(raw) ? parseRate(text(raw), "NITRO_MCP_RATE_LIMIT") : undefined),
  }),
  trustProxy: setting({
    env: "NITRO_MCP_TRUST_PROXY",
    default: 0,
    doc: "How many proxies in front of the server append to X-Forwarded-For; 0: the header is ignored (anonymous callers are limited by address)",
    parse: integer("NITRO_MCP_TRUST_PROXY", 0),
  }),
  rateLimitOnStoreError: setting({
    env: "NITRO_MCP_RATE_LIMIT_ON_STORE_ERROR",
    default: "open",
    doc: "When the store cannot count: open serves the request unlimited, closed refuses it (503)",
    parse: (raw): "open" | "closed" => {
      const value = text(raw);
      if (value !== "open" && value !== "closed") throw new Error('NITRO_MCP_RATE_LIMIT_ON_STORE_ERROR must be "open" or "closed"');
      return value;
    },
  }),
  // end feature:rate-limit
  legacy: setting({
    env: "NITRO_MCP_LEGACY",
    default: true,
    doc: "Also serve 2025-11-25, 2025-06-18 and 2025-03-26 clients (initialize); false: 2026-07-28 only",
    parse: boolean,
  }),
} as const;

export type SettingKey = keyof typeof SETTINGS;

/** Variables read straight from the environment when storage is mounted (see `server/storage/`). */
export const STORAGE_VARIABLES = [
  { env: "REDIS_URL", doc: "Redis for shared storage, e.g. redis://127.0.0.1:6379 (Node, Vercel)" },
  { env: "UPSTASH_REDIS_REST_URL", doc: "Upstash Redis REST URL, with UPSTASH_REDIS_REST_TOKEN (Node, Vercel)" },
  { env: "UPSTASH_REDIS_REST_TOKEN", doc: "Upstash Redis REST token" },
  { env: "NITRO_MCP_STORAGE_DIR", doc: "A folder for storage, for development (e.g. .data)" },
] as const;

/** The defaults, shaped as `runtimeConfig.mcp`. */
export function settingDefaults(): { [K in SettingKey]: (typeof SETTINGS)[K]["default"] } {
  return Object.fromEntries(Object.entries(SETTINGS).map(([key, spec]) => [key, spec.default])) as {
    [K in SettingKey]: (typeof SETTINGS)[K]["default"];
  };
}
