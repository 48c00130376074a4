/** Reads the server card's settings at start-up, so a name or description the draft would refuse stops the server with a clear message. */
import { useSettings } from "../../../mcp/config";
import { SETTINGS } from "../settings";

export default defineNitroPlugin(() => {
  useSettings(SETTINGS);
});
