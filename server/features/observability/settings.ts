/** The request log's settings (read with `useSettings`; their table is in this folder's README). */
import { boolean, setting } from "../../mcp/settings";

export const SETTINGS = {
  /** One log line per HTTP request: method, target, outcome, status, duration (never arguments or tokens) */
  logRequests: setting({ env: "NITRO_MCP_LOG_REQUESTS", default: true, parse: boolean }),
  /** Also put each request's arguments in its log line (they may hold personal data: for development) */
  logArguments: setting({ env: "NITRO_MCP_LOG_ARGUMENTS", default: false, parse: boolean }),
} as const;
