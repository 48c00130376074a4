/** The request log's settings (read with `useSettings`; their table is in this folder's README). */
import { boolean, setting } from "../../mcp/settings";

export const SETTINGS = {
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
} as const;
