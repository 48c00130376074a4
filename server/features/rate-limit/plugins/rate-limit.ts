/** Registers the rate limits of this feature (NITRO_MCP_RATE_LIMIT and each definition's `rateLimit`). */
import { useSettings } from "../../../mcp/config";
import { addRequestChecks } from "../../../mcp/features";
import { logInfo } from "../../../mcp/log";
import { registry } from "../../../mcp/registry";
import { rateLimitChecks } from "../rate-limit";
import { SETTINGS } from "../settings";

export default defineNitroPlugin(() => {
  const settings = useSettings(SETTINGS);
  const entries = registry.all.filter((entry) => entry.rateLimit !== undefined);
  addRequestChecks(
    rateLimitChecks({
      global: settings.rateLimit,
      trustedProxies: settings.trustProxy,
      onStoreError: settings.rateLimitOnStoreError,
      entries,
    }),
  );
  if (settings.rateLimit)
    logInfo(`rate limit: ${settings.rateLimit.limit} requests per ${settings.rateLimit.windowMs} ms per caller`);
  for (const entry of entries)
    logInfo(`rate limit: ${entry.kind} ${entry.descriptor.name}, ${entry.rateLimit} per caller`);
});
