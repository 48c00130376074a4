/** Serves 2025-era clients on the same endpoint, unless NITRO_MCP_LEGACY=false (see ../legacy.ts). */
import { addAdapter, addGetResponder, useSettings } from "../../../mcp/kit";
import { receiveOnLegacySession } from "../answers";
import { LEGACY, LEGACY_VERSIONS, readLegacyRequest, serveLegacy } from "../legacy";
import { SETTINGS } from "../settings";
import { sessionStream } from "../subscriptions";

export default defineNitroPlugin(() => {
  if (!useSettings(SETTINGS).legacy) return;
  addAdapter({
    name: LEGACY,
    versions: LEGACY_VERSIONS,
    read: readLegacyRequest,
    receive: receiveOnLegacySession,
    serve: serveLegacy,
  });
  addGetResponder(sessionStream);
});
