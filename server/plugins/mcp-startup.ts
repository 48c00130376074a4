/** Fails fast at start-up, not on the first request: a short state secret, a `task` or `rateLimit` without its feature. */
import { features } from "#mcp-features";
import { useMcpConfig } from "../mcp/config";
import { logWarning, setLogFormat } from "../mcp/log";
import { registry } from "../mcp/registry";
import { configureShares } from "../mcp/shares";
import { useStateKeyRing } from "../mcp/state/request-state";

export default defineNitroPlugin(() => {
  const config = useMcpConfig();
  // First, so every later line (this plugin's, the storage plugin's) has the chosen format.
  setLogFormat(config.logFormat);
  void useStateKeyRing();
  configureShares({ streams: config.callerStreams, subscriptions: config.callerSubscriptions });
  const taskTools = registry.tools.filter((tool) => tool.task).map((tool) => tool.descriptor.name);
  if (taskTools.length && !features.includes("tasks")) {
    throw new Error(
      `${taskTools.join(", ")} declare${taskTools.length === 1 ? "s" : ""} task, which needs the tasks feature (server/features/tasks), absent from this build: remove the option, or the tool`,
    );
  }
  // A rateLimit that silently limits nothing would leave a paid upstream open.
  const limited = registry.all.filter((entry) => entry.rateLimit !== undefined).map((entry) => entry.descriptor.name);
  if (limited.length && !features.includes("rate-limit")) {
    throw new Error(
      `${limited.join(", ")} set${limited.length === 1 ? "s" : ""} rateLimit, which needs the rate-limit feature (server/features/rate-limit), absent from this build: remove the option, or restore the feature`,
    );
  }
  if (config.allowedOrigins.includes("*")) {
    logWarning(
      "⚠ NITRO_MCP_ALLOWED_ORIGINS=* lets any web page call this server from a browser; on a local server, that includes hostile ones.",
    );
  }
});
