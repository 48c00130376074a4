/** Reads the server card's settings at start-up, so a name or description the draft would refuse stops the server with a clear message. */
import { SETTINGS } from "../settings";
import { useSettings } from "../../../mcp/kit";

export default defineNitroPlugin(() => {
  useSettings(SETTINGS);
});
