/** Serves 2025-era clients on the same endpoint, unless NITRO_MCP_LEGACY=false (see ../legacy.ts). */
import { useSettings } from "../../../mcp/config";
import { addGetResponder, addMethods, offerResourceSubscriptions, serveLegacyEra } from "../../../mcp/features";
import { receiveOnLegacySession } from "../answers";
import { askableCapabilities } from "../ask";
import {
  LEGACY_LOG_LEVEL,
  LEGACY_VERSIONS,
  initialize,
  legacyError,
  legacyInputRequired,
  legacyResult,
  ping,
  selectLegacyEra,
  setLogLevel,
} from "../legacy";
import { checkSession } from "../session";
import { SETTINGS } from "../settings";
import { sessionStream, subscribe, unsubscribe } from "../subscriptions";

export default defineNitroPlugin(() => {
  if (!useSettings(SETTINGS).legacy) return;
  addMethods(["legacy"], {
    initialize,
    ping,
    "logging/setLevel": setLogLevel,
    "resources/subscribe": subscribe,
    "resources/unsubscribe": unsubscribe,
  });
  // Declared in initialize when the store has a message bus to carry the updates on (the GET stream).
  offerResourceSubscriptions("legacy");
  addGetResponder(sessionStream);
  serveLegacyEra({
    versions: LEGACY_VERSIONS,
    selectEra: selectLegacyEra,
    logLevel: LEGACY_LOG_LEVEL,
    result: legacyResult,
    inputRequired: legacyInputRequired,
    error: legacyError,
    askable: askableCapabilities,
    openSession: checkSession,
    receive: receiveOnLegacySession,
  });
});
