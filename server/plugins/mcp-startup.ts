/**
 * Fails fast on bad configuration (a state secret shorter than 32 bytes, a malformed
 * NITRO_MCP_AUTH_TOKENS…) so the server stops at start-up with a clear message instead
 * of failing on the first request.
 */
import { useMcpConfig } from "../mcp/config";
import { useStateKeyRing } from "../mcp/state/key-ring";

export default defineNitroPlugin(() => {
  useMcpConfig();
  void useStateKeyRing();
});
