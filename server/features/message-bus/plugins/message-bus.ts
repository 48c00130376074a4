/**
 * Keeps this instance's bus subscriptions on the store's transport (its folder's `bus.ts`) for the core's message bus, and gives
 * `subscriptions/listen` its resource updates: `resources.subscribe` is then declared wherever the registry has resources.
 */
import {
  addListenSource,
  declareCapabilities,
  logInfo,
  registry,
  setMessageBus,
  useMessageBus,
  useStore,
} from "../../../mcp/kit";
import { subscriptionsOver } from "../bus";
import { resourceUpdates } from "../listen-resources";

export default defineNitroPlugin(() => {
  const store = useStore();
  const transport = store?.ports.bus;
  if (transport) setMessageBus(subscriptionsOver(`${store.name}, as a message bus`, transport), transport);
  // As the core gives it: each subscription counts against its caller's share.
  const bus = useMessageBus();
  logInfo(`message bus: ${bus?.name ?? "none (the store carries no messages between instances)"}`);
  if (!bus) return;
  addListenSource(resourceUpdates(bus));
  if (registry().capabilities.resources) declareCapabilities({ resources: { subscribe: true } });
});
