/** The 2025 era's settings (read with `useSettings`; the table is in this folder's README). */
import { boolean, integer, setting } from "../../mcp/settings";

export const SETTINGS = {
  legacy: setting({ env: "NITRO_MCP_LEGACY", default: true, parse: boolean,
    doc: "Also serve 2025-11-25, 2025-06-18 and 2025-03-26 clients (initialize); false: 2026-07-28 only" }),
  legacySessionTtlSeconds: setting({ env: "NITRO_MCP_LEGACY_SESSION_TTL_SECONDS", default: 86400, parse: integer("NITRO_MCP_LEGACY_SESSION_TTL_SECONDS", 60),
    doc: "Lifetime of a 2025-era session (the sealed Mcp-Session-Id), in seconds; then 404 and the client initializes again" }),
  legacyAskTimeoutSeconds: setting({ env: "NITRO_MCP_LEGACY_ASK_TIMEOUT_SECONDS", default: 300, parse: integer("NITRO_MCP_LEGACY_ASK_TIMEOUT_SECONDS", 1),
    doc: "How long a 2025-era client has to answer one round of questions, in seconds" }),
  legacyAskMaxRounds: setting({ env: "NITRO_MCP_LEGACY_ASK_MAX_ROUNDS", default: 10, parse: integer("NITRO_MCP_LEGACY_ASK_MAX_ROUNDS", 1),
    doc: "Most rounds of questions one 2025-era request may ask before it ends with an error" }),
} as const;
