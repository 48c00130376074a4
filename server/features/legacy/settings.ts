/** Whether 2025-era clients are served (read with `useSettings`; the table is in this folder's README). */
import { boolean, setting } from "../../mcp/settings";

export const SETTINGS = {
  legacy: setting({ env: "NITRO_MCP_LEGACY", default: true, parse: boolean,
    doc: "Also serve 2025-11-25, 2025-06-18 and 2025-03-26 clients (initialize); false: 2026-07-28 only" }),
} as const;
