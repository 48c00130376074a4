/**
 * Mounts the shared store at `mcp:` (notes, URL-mode attempts, single-use state records).
 * Synchronous on purpose: Nitro does not await async plugins.
 */
import { selectStorageDriver } from "#mcp-storage-driver";
import { logInfo, logWarning } from "../mcp/log";

export default defineNitroPlugin(() => {
  const selected = selectStorageDriver(process.env);
  if (selected) {
    useStorage().mount("mcp", selected.driver);
    logInfo(`storage: ${selected.name}`);
  } else if (!import.meta.dev) {
    logWarning(
      "storage: in memory, this process only. Several instances need shared storage: set REDIS_URL or UPSTASH_REDIS_REST_URL/UPSTASH_REDIS_REST_TOKEN (or bind MCP_KV on Cloudflare).",
    );
  }
});
