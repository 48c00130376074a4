/** Registers the rate limits of `server/features/rate-limit` (NITRO_MCP_RATE_LIMIT and each definition's `rateLimit`). */
import { rateLimitChecks } from "../features/rate-limit/rate-limit";
import { useMcpConfig } from "../mcp/config";
import { addRequestChecks } from "../mcp/http/request-checks";
import { logInfo } from "../mcp/log";
import { registry } from "../mcp/registry";

export default defineNitroPlugin(() => {
  const config = useMcpConfig();
  const entries = registry.all.filter((entry) => entry.rateLimit !== undefined);
  addRequestChecks({
    ...rateLimitChecks({ global: config.rateLimit, trustedProxies: config.trustProxy, onStoreError: config.rateLimitOnStoreError, entries }),
    enforces: ["rateLimit"],
  });
  if (config.rateLimit) logInfo(`rate limit: ${config.rateLimit.limit} requests per ${config.rateLimit.windowMs} ms per caller`);
  for (const entry of entries) logInfo(`rate limit: ${entry.kind} ${entry.descriptor.name}, ${entry.rateLimit} per caller`);
});
