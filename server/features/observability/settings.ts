/** The request log's settings (read with `useSettings`; their table is in this folder's README). */
import { boolean, setting } from "../../mcp/settings";

export const SETTINGS = {
  logRequests: setting({ env: "NITRO_MCP_LOG_REQUESTS", default: true, parse: boolean,
    doc: "One log line per HTTP request: method, target, outcome, status, duration (never arguments or tokens)" }),
  logArguments: setting({ env: "NITRO_MCP_LOG_ARGUMENTS", default: false, parse: boolean,
    doc: "Also put each request's arguments in its log line (they may hold personal data: for development)" }),
} as const;
