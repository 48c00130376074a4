/** The rate limits' settings (read with `useSettings`; their table is in this folder's README). */
import { setting, text } from "../../mcp/settings";
import { parseRate, type Rate } from "./rate";

/** A rate, or "off" for none. */
const rateOrOff =
  (env: string) =>
  (raw: string): Rate | undefined =>
    text(raw) === "off" ? undefined : parseRate(text(raw), env);

export const SETTINGS = {
  /** Requests per caller across every instance, e.g. 600/60s (429 past it); unset: no limit (server/features/rate-limit) */
  rateLimit: setting({
    env: "NITRO_MCP_RATE_LIMIT",
    default: "",
    text: true,
    parse: (raw): Rate | undefined => (text(raw) ? parseRate(text(raw), "NITRO_MCP_RATE_LIMIT") : undefined),
  }),
  /** With NITRO_MCP_RATE_LIMIT: the budget of the requests a host makes to connect (initialize, server/discover, the lists, ping), apart from the rest; "off": they count against NITRO_MCP_RATE_LIMIT */
  rateLimitConnect: setting({
    env: "NITRO_MCP_RATE_LIMIT_CONNECT",
    default: "60/60s",
    text: true,
    parse: rateOrOff("NITRO_MCP_RATE_LIMIT_CONNECT"),
  }),
  /** completion/complete per caller, on top of NITRO_MCP_RATE_LIMIT (the spec requires completion to be rate limited); "off": none */
  rateLimitCompletion: setting({
    env: "NITRO_MCP_RATE_LIMIT_COMPLETION",
    default: "300/60s",
    text: true,
    parse: rateOrOff("NITRO_MCP_RATE_LIMIT_COMPLETION"),
  }),
  /** When the store cannot count: open serves the request unlimited, closed refuses it (503) */
  rateLimitOnStoreError: setting({
    env: "NITRO_MCP_RATE_LIMIT_ON_STORE_ERROR",
    default: "open",
    parse: (raw): "open" | "closed" => {
      const value = text(raw);
      if (value !== "open" && value !== "closed")
        throw new Error('NITRO_MCP_RATE_LIMIT_ON_STORE_ERROR must be "open" or "closed"');
      return value;
    },
  }),
} as const;
