/**
 * Opens the store this environment configures (the first of this build's stores, in their order, whose `select` answers:
 * `#mcp-stores`), mounts it at `mcp:`, and makes its ports, every operation guarded. A definition needing atomics the store
 * lacks stops the start-up: exactly once never silently degrades. Synchronous: Nitro does not await async plugins.
 */
import { stores } from "#mcp-stores";
import { registry } from "../mcp/registry";
import { logInfo, logWarning } from "../mcp/log";
import { guarded, setStore, type StorePorts } from "../mcp/store";

export default defineNitroPlugin(() => {
  const chosen = [...stores]
    .sort((a, b) => a.definition.order - b.definition.order)
    .map(({ definition, ports }) => ({ opened: definition.select(process.env as Record<string, unknown>), ports }))
    .find(({ opened }) => opened !== undefined);
  if (!chosen?.opened) throw new Error("No store in this build answers the environment: keep server/storage/memory");
  const { opened } = chosen;
  const bus = chosen.ports.bus?.(opened.client);
  const counter = chosen.ports.counter?.(opened.client);
  // Each port bounded and traced like any storage operation (a rejection: StorageUnavailableError); hearing a channel is
  // bounded by the bus itself, which closes what it gave up on.
  const ports: StorePorts = {
    bus: bus && guarded({ name: opened.name, ...bus }, new Set(["listen"])),
    counter: counter && guarded({ name: opened.name, consume: counter }).consume,
  };
  // The driver's `getInstance` and `watch` are not storage operations: passed through as they are.
  if (opened.driver) useStorage().mount("mcp", guarded(opened.driver, new Set(["getInstance", "watch"])));
  setStore({ ...opened, atomic: opened.atomic && guarded(opened.atomic), ports });
  logInfo(`storage: ${opened.name}`);

  const needing = registry()
    .all.filter((entry) => entry.singleUseState)
    .map((entry) => entry.descriptor.name);
  if (!opened.atomic && needing.length) {
    throw new Error(
      `${opened.name} cannot claim a single-use requestState, which ${needing.join(", ")} need${needing.length === 1 ? "s" : ""}. ${opened.missingAtomic}`,
    );
  }
  if (opened.name === "memory" && !import.meta.dev) {
    logWarning(
      "storage: in memory, this process only. Several instances need a store they share: server/storage/README.md lists them and what each needs.",
    );
  }
});
