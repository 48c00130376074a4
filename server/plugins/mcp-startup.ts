/**
 * At start-up: the definitions the build found, handed to the registry; the log's format, the state keys (a short secret stops the server here, not on the first request), each
 * caller's shares; and every request's observers, called from Nitro's own request hooks.
 */
import * as definitions from "#mcp-definitions";
import { useMcpConfig } from "../mcp/config";
import { observeEnd, observeStart } from "../mcp/hooks";
import { logWarning, setLogFormat } from "../mcp/log";
import { setDefinitions } from "../mcp/registry";
import { useStateKeyRing } from "../mcp/state/request-state";

export default defineNitroPlugin((nitroApp) => {
  setDefinitions(definitions);
  const config = useMcpConfig();
  // First, so every later line (this plugin's, the storage plugin's) has the chosen format.
  setLogFormat(config.logFormat);
  void useStateKeyRing();
  if (config.allowedOrigins.includes("*")) {
    logWarning(
      "⚠ NITRO_MCP_ALLOWED_ORIGINS=* lets any web page call this server from a browser; on a local server, that includes hostile ones.",
    );
  }
  nitroApp.hooks.hook("request", observeStart);
  nitroApp.hooks.hook("afterResponse", observeEnd);
});
