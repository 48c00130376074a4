/** Serves 2025-era clients on the same endpoint, unless NITRO_MCP_LEGACY=false (see ../legacy.ts). */
import { useSettings } from "../../../mcp/config";
import { addMethods, serveLegacyEra } from "../../../mcp/features";
import { receiveOnLegacySession } from "../answers";
import { LEGACY_LOG_LEVEL, LEGACY_VERSIONS, initialize, legacyError, legacyInputRequired, legacyResult, ping, selectLegacyEra, setLogLevel } from "../legacy";
import { checkSession } from "../session";
import { SETTINGS } from "../settings";

export default defineNitroPlugin(() => {
  if (!useSettings(SETTINGS).legacy) return;
  addMethods(["legacy"], { initialize, ping, "logging/setLevel": setLogLevel });
  serveLegacyEra({
    versions: LEGACY_VERSIONS,
    selectEra: selectLegacyEra,
    logLevel: LEGACY_LOG_LEVEL,
    result: legacyResult,
    inputRequired: legacyInputRequired,
    error: legacyError,
    openSession: checkSession,
    receive: receiveOnLegacySession,
  });
});
