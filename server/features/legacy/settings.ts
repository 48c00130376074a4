/** The 2025 era's settings (read with `useSettings`; the table is in this folder's README). */
import { boolean, integer, setting } from "../../mcp/settings";

export const SETTINGS = {
  /** Also serve 2025-11-25, 2025-06-18 and 2025-03-26 clients (initialize); false: 2026-07-28 only */
  legacy: setting({ env: "NITRO_MCP_LEGACY", default: true, parse: boolean }),
  /** Lifetime of a 2025-era session (the sealed Mcp-Session-Id), in seconds; then 404 and the client initializes again */
  legacySessionTtlSeconds: setting({ env: "NITRO_MCP_LEGACY_SESSION_TTL_SECONDS", default: 86400, parse: integer(60) }),
  /** How long a 2025-era client has to answer one round of questions, in seconds */
  legacyAskTimeoutSeconds: setting({ env: "NITRO_MCP_LEGACY_ASK_TIMEOUT_SECONDS", default: 300, parse: integer(1) }),
  /** Most rounds of questions one 2025-era request may ask before it ends with an error */
  legacyAskMaxRounds: setting({ env: "NITRO_MCP_LEGACY_ASK_MAX_ROUNDS", default: 10, parse: integer(1) }),
  /** Most 2025-era sessions of one caller that keep resource subscriptions at once */
  legacySubscribedSessions: setting({ env: "NITRO_MCP_LEGACY_SUBSCRIBED_SESSIONS", default: 10, parse: integer(1) }),
} as const;
