/**
 * `subscriptions/listen`. This template declares no `listChanged` or `subscribe`
 * capability (its lists only change with a deploy), so the acknowledgement honours
 * none of the requested notification types. The stream is still a real subscription:
 * acknowledged first, kept alive with SSE comments, ended gracefully with a result
 * after `NITRO_MCP_LISTEN_MAX_SECONDS`, or when the client closes it.
 */
import { useMcpConfig } from "../config";
import type { McpContext } from "../context";
import { invalidParams } from "../errors";
import { isPlainObject, notificationMessage } from "../jsonrpc";
import { META } from "../protocol";
import type { MethodResult } from "./types";

const KEEP_ALIVE_MS = 15_000;

export async function listen(mcp: McpContext): Promise<MethodResult> {
  if (mcp.params.notifications !== undefined && !isPlainObject(mcp.params.notifications)) {
    throw invalidParams("params.notifications must be an object");
  }
  const tag = { [META.subscriptionId]: mcp.id };
  mcp.channel.send(notificationMessage("notifications/subscriptions/acknowledged", { _meta: tag, notifications: {} }));

  await new Promise<void>((resolve) => {
    const keepAlive = setInterval(() => mcp.channel.keepAlive(), KEEP_ALIVE_MS);
    const end = () => {
      clearInterval(keepAlive);
      clearTimeout(deadline);
      resolve();
    };
    const deadline = setTimeout(end, useMcpConfig().listenMaxSeconds * 1000);
    mcp.signal.addEventListener("abort", end, { once: true });
  });
  return { _meta: tag };
}
