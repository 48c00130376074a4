/**
 * Fails fast on bad configuration (a state secret shorter than 32 bytes, a malformed
 * NITRO_MCP_AUTH_TOKENS…) so the server stops at start-up with a clear message instead
 * of failing on the first request.
 */
import { useMcpConfig } from "../mcp/config";
import { logWarning } from "../mcp/log";
import { useStateKeyRing } from "../mcp/state/request-state";

export default defineNitroPlugin(() => {
  const config = useMcpConfig();
  void useStateKeyRing();
  if (config.allowedOrigins.includes("*")) {
    logWarning("⚠ NITRO_MCP_ALLOWED_ORIGINS=* lets any web page call this server from a browser; on a local server, that includes hostile ones.");
  }
});
