/**
 * Logs and traces for every request: a span per MCP request (started once its message is read, see
 * `tracing.ts`), and once its response is complete, the span ended and its line in the request log
 * (see `request-log.ts`).
 */
import { useSettings } from "../../../mcp/config";
import { observeRequests } from "../../../mcp/features";
import { logInfo } from "../../../mcp/log";
import { requestLogFields } from "../request-log";
import { SETTINGS } from "../settings";
import { endRequestSpan, inRequestSpan, startRequestSpan, withSpan } from "../tracing";

export default defineNitroPlugin((nitroApp) => {
  const settings = useSettings(SETTINGS);
  observeRequests({ read: startRequestSpan, within: inRequestSpan, step: withSpan });
  nitroApp.hooks.hook("request", (event) => {
    event.context.mcpStartedAt = performance.now();
  });
  nitroApp.hooks.hook("afterResponse", (event) => {
    const status = event.node.res.statusCode;
    endRequestSpan(event, status, event.context.mcpOutcome);
    if (settings.logRequests) logInfo("request", requestLogFields(event, performance.now() - (event.context.mcpStartedAt ?? performance.now()), settings.logArguments));
  });
});
