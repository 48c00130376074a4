/**
 * Every setting, declared once: variable, default, parser, and its meaning in the comment above it (not a string: out of the bundle).
 * `nitro.config.ts` takes the defaults, `config.ts` parses the values, the settings test checks the docs. Pure data: no Nitro runtime.
 */

export interface Setting<T, Default extends string | number | boolean = string | number | boolean> {
  /** The environment variable (Nitro maps `NITRO_MCP_STATE_SECRET` to `runtimeConfig.mcp.stateSecret`). */
  readonly env: string;
  /** The default, as Nitro's runtime config holds it. */
  readonly default: Default;
  /** The default as the docs show it, when it is not the literal value (e.g. "package.json"). */
  readonly shownDefault?: string;
  /** Read the variable's own text: Nitro's `destr` turns "1.0" into 1 and an all-digit secret into an imprecise number. */
  readonly text?: boolean;
  /** Parses the raw value of the variable `env`; throws an Error naming it when it is invalid (a secret's, never quoting it). */
  parse(raw: unknown, env: string): T;
}

type Widen<Value> = Value extends string ? string : Value extends number ? number : boolean;
/**
 * One setting of a settings table: its variable, default and parser (the default's type widened: `50` is a number).
 * @example pageSize: setting({ env: "NITRO_MCP_PAGE_SIZE", default: 50, parse: integer(1) }),
 */
export const setting = <T, Default extends string | number | boolean>(
  spec: Setting<T, Default>,
): Setting<T, Widen<Default>> => spec as unknown as Setting<T, Widen<Default>>;

/**
 * Parses a comma-separated setting into its entries, trimmed, empty ones dropped.
 * @example parseList(" notes:read, notes:write,,"); // ["notes:read", "notes:write"]
 */
export const parseList = (raw: unknown): string[] =>
  String(raw ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);

/**
 * Parses a text setting as it is (unset: the empty string).
 * @example stateSecret: setting({ env: "NITRO_MCP_STATE_SECRET", default: "", text: true, parse: text }),
 */
export const text = (raw: unknown): string => String(raw ?? "");
/**
 * Parses a text setting that may be unset: empty is undefined.
 * @example resourceUrl: setting({ env: "NITRO_MCP_RESOURCE_URL", default: "", text: true, parse: optionalText }),
 */
export const optionalText = (raw: unknown): string | undefined => text(raw) || undefined;

/**
 * The parser of an integer setting of at least `min` (and at most `max`, when given); any other value throws, naming the variable.
 * @example parse: integer(1),
 */
export const integer =
  (min: number, max = Number.POSITIVE_INFINITY) =>
  (raw: unknown, env: string): number => {
    const number = Number(raw);
    if (!Number.isInteger(number) || number < min) throw new Error(`${env} must be an integer >= ${min}, got "${raw}"`);
    if (number > max) throw new Error(`${env} must be an integer from ${min} to ${max}, got "${raw}"`);
    return number;
  };

/**
 * The parser of an integer setting from `min` to `max` (the kit exports it as `boundedInteger`); any other value
 * throws, naming the variable.
 * @example parse: boundedInteger(16, 128),
 */
export const bounded: (min: number, max: number) => (raw: unknown, env: string) => number = integer;

/**
 * Parses a boolean setting: anything but `false` (or the text "false") is true.
 * @example boolean("false"); // false; anything else ("0" and "no" too) is true
 */
export const boolean = (raw: unknown): boolean => raw !== false && raw !== "false";

/** The server's name and version: unset here, `nitro.config.ts` fills them in from package.json; the variable read as text. */
const FROM_PACKAGE = { default: "", text: true, parse: text } as const;

/** The settings under `runtimeConfig.mcp`, by key. */
export const SETTINGS = {
  /** Server name in server/discover and in every result's _meta */
  serverName: setting({ env: "NITRO_MCP_SERVER_NAME", ...FROM_PACKAGE, shownDefault: "package.json name" }),
  /** Server version in server/discover and in every result's _meta */
  serverVersion: setting({ env: "NITRO_MCP_SERVER_VERSION", ...FROM_PACKAGE, shownDefault: "package.json version" }),
  /** Natural-language instructions returned by server/discover */
  instructions: setting({ env: "NITRO_MCP_INSTRUCTIONS", default: "", text: true, parse: optionalText }),
  /** Seals requestState (AES-256-GCM), at least 32 bytes, the same on every instance; without it `npm run dev` uses a per-process key and a build cannot ask for input */
  stateSecret: setting({ env: "NITRO_MCP_STATE_SECRET", default: "", text: true, parse: text }),
  /** Comma-separated secrets from before a rotation: they open old states, never seal new ones */
  stateSecretPrevious: setting({ env: "NITRO_MCP_STATE_SECRET_PREVIOUS", default: "", text: true, parse: parseList }),
  /** How long a requestState stays valid, in seconds (5 s of clock skew tolerated) */
  stateTtlSeconds: setting({ env: "NITRO_MCP_STATE_TTL_SECONDS", default: 600, parse: integer(1) }),
  /** Longest requestState accepted (checked before any crypto) or issued, in characters */
  stateMaxLength: setting({ env: "NITRO_MCP_STATE_MAX_LENGTH", default: 16384, parse: integer(256) }),
  /** The canonical URL of this MCP endpoint (e.g. https://mcp.example.com/mcp); with sign-in, the resource of the metadata and the audience every token must carry (required there) */
  resourceUrl: setting({ env: "NITRO_MCP_RESOURCE_URL", default: "", text: true, parse: optionalText }),
  /** Extra browser origins allowed to call the endpoint (comma-separated, e.g. https://app.example); "*" allows any */
  allowedOrigins: setting({
    env: "NITRO_MCP_ALLOWED_ORIGINS",
    default: "",
    parse: (raw) => parseList(raw).map((origin) => origin.toLowerCase().replace(/\/$/, "")),
  }),
  /** Host names the endpoint answers to (comma-separated); unset: on a loopback or private address only loopback names and IP literals */
  allowedHosts: setting({
    env: "NITRO_MCP_ALLOWED_HOSTS",
    default: "",
    parse: (raw) => parseList(raw).map((host) => host.toLowerCase()),
  }),
  /** How many proxies in front of the server append to X-Forwarded-For (and set X-Forwarded-Proto); 0: those headers are ignored (a client could write them) */
  trustProxy: setting({ env: "NITRO_MCP_TRUST_PROXY", default: 0, parse: integer(0) }),
  /** Anonymous IPv6 callers are one caller per network of this many bits (a host usually holds a whole /64) */
  ipv6Prefix: setting({ env: "NITRO_MCP_IPV6_PREFIX", default: 64, parse: bounded(16, 128) }),
  /** Streams one caller may hold open at once on an instance (subscriptions/listen, 2025-era GET streams and questions); past it 429 */
  callerStreams: setting({ env: "NITRO_MCP_CALLER_STREAMS", default: 20, parse: integer(1) }),
  /** Message-bus subscriptions one caller may hold at once on an instance (a resource watched, a question waiting for its answer); past it 429 */
  callerSubscriptions: setting({ env: "NITRO_MCP_CALLER_SUBSCRIPTIONS", default: 200, parse: integer(1) }),
  /** Longest a stream stays open, in seconds (listen streams, 2025-era GET streams and questions), under every platform's limit on a response (Vercel: 300 s); the client then opens another */
  streamSeconds: setting({ env: "NITRO_MCP_STREAM_SECONDS", default: 280, parse: integer(1) }),
  /** Request bodies still arriving (not whole when read) one caller may be sending at once on an instance, each held in memory meanwhile; past it 429 */
  callerBodies: setting({ env: "NITRO_MCP_CALLER_BODIES", default: 16, parse: integer(1) }),
  /** Largest request body, in bytes (413 above it) */
  maxBodyBytes: setting({ env: "NITRO_MCP_MAX_BODY_BYTES", default: 1048576, parse: integer(1024) }),
  /** Time a client has to send the whole request body, in milliseconds (408 and the connection closed after it) */
  bodyTimeoutMs: setting({ env: "NITRO_MCP_BODY_TIMEOUT_MS", default: 10000, parse: integer(100) }),
  /** Items per page in tools/list, prompts/list, resources/list and resources/templates/list */
  pageSize: setting({ env: "NITRO_MCP_PAGE_SIZE", default: 50, parse: integer(1) }),
  /** Caching hint (ttlMs) on lists and server/discover */
  listTtlMs: setting({ env: "NITRO_MCP_LIST_TTL_MS", default: 60000, parse: integer(0) }),
  /** json: one JSON object per line; pretty: readable text; auto: pretty in npm run dev, json in builds */
  logFormat: setting({
    env: "NITRO_MCP_LOG_FORMAT",
    default: "auto",
    parse: (raw): "json" | "pretty" | "auto" => {
      const value = text(raw);
      if (value !== "json" && value !== "pretty" && value !== "auto")
        throw new Error('NITRO_MCP_LOG_FORMAT must be "json", "pretty" or "auto"');
      return value;
    },
  }),
} as const;

export type SettingTable = Readonly<Record<string, Setting<unknown>>>;

type Defaults<Table extends SettingTable> = { [K in keyof Table]: Table[K]["default"] };

/** The defaults of a table, shaped as `runtimeConfig.mcp`. */
export function settingDefaults<Table extends SettingTable>(table: Table): Defaults<Table> {
  return Object.fromEntries(Object.entries(table).map(([key, spec]) => [key, spec.default])) as Defaults<Table>;
}
