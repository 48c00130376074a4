/** The tasks' settings (read with `useSettings`; their table is in this folder's README). */
import { integer, setting } from "../../mcp/settings";

export const SETTINGS = {
  /** How long a task (and its result) is kept after it is created, in seconds; then it is deleted */
  taskTtlSeconds: setting({ env: "NITRO_MCP_TASK_TTL_SECONDS", default: 3600, parse: integer(1) }),
  /** How often clients are asked to poll a task (pollIntervalMs), in milliseconds */
  taskPollIntervalMs: setting({ env: "NITRO_MCP_TASK_POLL_INTERVAL_MS", default: 1000, parse: integer(1) }),
  /** A working task whose instance has not reported for this long (it died, or its platform stopped it) is marked failed */
  taskHeartbeatTimeoutSeconds: setting({
    env: "NITRO_MCP_TASK_HEARTBEAT_TIMEOUT_SECONDS",
    default: 30,
    parse: integer(1),
  }),
  /** Most tasks a caller (a principal; an anonymous caller by its address) may have working or waiting for input at once; beyond it a call that would start a task gets an isError result */
  taskMaxActive: setting({ env: "NITRO_MCP_TASK_MAX_ACTIVE", default: 10, parse: integer(1) }),
} as const;
