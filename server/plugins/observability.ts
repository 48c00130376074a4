/**
 * Logs and traces for every request: when it arrived, then, once its response is complete, its
 * span ended (see `mcp/tracing.ts`) and its line in the request log (see `mcp/http/request-log.ts`).
 */
import { useMcpConfig } from "../mcp/config";
import { requestLogFields } from "../mcp/http/request-log";
import { logInfo } from "../mcp/log";
import { endRequestSpan } from "../mcp/tracing";

export default defineNitroPlugin((nitroApp) => {
  const config = useMcpConfig();
  nitroApp.hooks.hook("request", (event) => {
    event.context.mcpStartedAt = performance.now();
  });
  nitroApp.hooks.hook("afterResponse", (event) => {
    const status = event.node.res.statusCode;
    endRequestSpan(event, status, event.context.mcpOutcome);
    if (config.logRequests) logInfo("request", requestLogFields(event, performance.now() - (event.context.mcpStartedAt ?? performance.now()), config.logArguments));
  });
});
