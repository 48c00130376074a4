/**
 * Mounts the shared store at `mcp:` and sets its atomic operations, both guarded. A definition needing atomics the store
 * lacks stops the start-up: exactly once never silently degrades. Synchronous: Nitro does not await async plugins.
 */
import { selectStorage } from "#mcp-storage-driver";
import { registry } from "../mcp/registry";
import { logInfo, logWarning } from "../mcp/log";
import { setStorage } from "../mcp/atomic-store";
import { guardAtomicStore, guardDriver } from "../mcp/storage-guard";

export default defineNitroPlugin(() => {
  const selected = selectStorage(process.env);
  if (selected.driver) useStorage().mount("mcp", guardDriver(selected.driver));
  setStorage(selected, selected.atomic && guardAtomicStore(selected.atomic));
  logInfo(`storage: ${selected.name}`);

  const needing = registry.all
    .filter((entry) => entry.singleUseState || (entry.kind === "tool" && entry.task))
    .map((entry) => entry.descriptor.name);
  if (!selected.atomic && needing.length) {
    throw new Error(
      `${selected.name} cannot claim a single-use requestState or keep a task atomically, which ${needing.join(", ")} need${needing.length === 1 ? "s" : ""}. ${selected.missingAtomic}`,
    );
  }
  if (selected.name === "memory" && !import.meta.dev) {
    logWarning(
      "storage: in memory, this process only. Several instances need shared storage: set REDIS_URL or UPSTASH_REDIS_REST_URL/UPSTASH_REDIS_REST_TOKEN (on Cloudflare, the bindings in wrangler.json).",
    );
  }
});
