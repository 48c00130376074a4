/** Registers the rate limits of this feature (NITRO_MCP_RATE_LIMIT, NITRO_MCP_RATE_LIMIT_CONNECT and each definition's `rateLimit`). */
import { addMessageCheck, addRequestCheck, logInfo, observeRequests, registry, useSettings } from "../../../mcp/kit";
import { rateLimitChecks } from "../rate-limit";
import { SETTINGS } from "../settings";

export default defineNitroPlugin(() => {
  const settings = useSettings(SETTINGS);
  const entries = registry().all.filter((entry) => entry.options.rateLimit !== undefined);
  const { request, message, end } = rateLimitChecks({
    global: settings.rateLimit,
    connect: settings.rateLimit && settings.rateLimitConnect,
    onStoreError: settings.rateLimitOnStoreError,
    entries,
  });
  if (request) addRequestCheck(request);
  if (message) addMessageCheck(message);
  if (end) observeRequests({ end });
  const { rateLimit, rateLimitConnect } = settings;
  if (rateLimit) logInfo(`rate limit: ${rateLimit.limit} requests per ${rateLimit.windowMs} ms per caller`);
  if (rateLimit && rateLimitConnect) {
    logInfo(`rate limit: ${rateLimitConnect.limit} requests to connect per ${rateLimitConnect.windowMs} ms per caller`);
  }
  for (const entry of entries)
    logInfo(`rate limit: ${entry.kind} ${entry.descriptor.name}, ${entry.options.rateLimit} per caller`);
});
