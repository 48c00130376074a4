/** Serves 2025-era clients on the same endpoint, unless NITRO_MCP_LEGACY=false (see ../legacy.ts). */
import { useSettings } from "../../../mcp/config";
import { serveLegacyEra } from "../../../mcp/features";
import { LEGACY_LOG_LEVEL, initialize, legacyError, legacyInputRequired, legacyResult, ping, setLogLevel } from "../legacy";
import { SETTINGS } from "../settings";

export default defineNitroPlugin(() => {
  if (!useSettings(SETTINGS).legacy) return;
  serveLegacyEra({
    logLevel: LEGACY_LOG_LEVEL,
    methods: new Map([["initialize", initialize], ["ping", ping], ["logging/setLevel", setLogLevel]]),
    result: legacyResult,
    inputRequired: legacyInputRequired,
    error: legacyError,
  });
});
