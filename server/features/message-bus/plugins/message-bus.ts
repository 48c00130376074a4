/**
 * Gives the core the bus of the configured store (after the core's storage plugin chose it), and `subscriptions/listen`
 * its resource updates: `resources.subscribe` is then declared wherever the registry has resources.
 */
import { useSelectedStorage } from "../../../mcp/atomic-store";
import { setMessageBus, useMessageBus } from "../../../mcp/bus";
import { addListenSource, offerResourceSubscriptions } from "../../../mcp/features";
import { logInfo } from "../../../mcp/log";
import { busFor } from "../select-bus";
import { resourceUpdates } from "../listen-resources";

export default defineNitroPlugin(() => {
  const storage = useSelectedStorage();
  if (!storage)
    throw new Error(
      "the message bus feature starts after the storage plugin (server/plugins/storage.ts), which chose no store",
    );
  setMessageBus(busFor(storage));
  // As the core gives it: each subscription counts against its caller's share.
  const bus = useMessageBus();
  logInfo(`message bus: ${bus?.name ?? "none"}`);
  if (!bus) return;
  addListenSource(resourceUpdates(bus));
  offerResourceSubscriptions("modern");
});
