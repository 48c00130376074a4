/**
 * Registers the rate limits of this feature (NITRO_MCP_RATE_LIMIT, NITRO_MCP_RATE_LIMIT_CONNECT,
 * NITRO_MCP_RATE_LIMIT_COMPLETION and each definition's `rateLimit`).
 */
import {
  addMessageCheck,
  addRequestCheck,
  logInfo,
  observeRequests,
  registry,
  useSettings,
  wrapDispatch,
} from "../../../mcp/kit";
import { COMPLETION, rateLimitChecks } from "../rate-limit";
import { SETTINGS } from "../settings";

export default defineNitroPlugin(() => {
  const settings = useSettings(SETTINGS);
  const entries = registry().all.filter((entry) => entry.options.rateLimit !== undefined);
  const { request, message, end, completion } = rateLimitChecks({
    global: settings.rateLimit,
    connect: settings.rateLimit && settings.rateLimitConnect,
    completion: settings.rateLimitCompletion,
    onStoreError: settings.rateLimitOnStoreError,
    entries,
  });
  if (request) addRequestCheck(request);
  if (message) addMessageCheck(message);
  if (end) observeRequests({ end });
  if (completion) wrapDispatch(completion, { methods: [COMPLETION] });
  const { rateLimit, rateLimitConnect, rateLimitCompletion } = settings;
  if (rateLimit) logInfo(`rate limit: ${rateLimit.limit} requests per ${rateLimit.windowMs} ms per caller`);
  if (rateLimit && rateLimitConnect) {
    logInfo(`rate limit: ${rateLimitConnect.limit} requests to connect per ${rateLimitConnect.windowMs} ms per caller`);
  }
  if (rateLimitCompletion) {
    logInfo(
      `rate limit: ${rateLimitCompletion.limit} completion requests per ${rateLimitCompletion.windowMs} ms per caller`,
    );
  }
  for (const entry of entries)
    logInfo(`rate limit: ${entry.kind} ${entry.descriptor.name}, ${entry.options.rateLimit} per caller`);
});
