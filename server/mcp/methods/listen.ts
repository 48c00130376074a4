/**
 * `subscriptions/listen`. This template declares no `listChanged` or `subscribe`
 * capability (its lists only change with a deploy), so its acknowledgement honours none
 * of the requested notification types, and the subscription then ends gracefully at
 * once: a stream with nothing to carry would only hold a connection open.
 * A server that does change its lists at run time would keep the stream open here.
 */
import type { McpContext } from "../context";
import { invalidParams } from "../errors";
import { isPlainObject } from "../internal/object";
import { notificationMessage } from "../jsonrpc";
import { META } from "../protocol";
import type { MethodResult } from "./types";

export function listen(mcp: McpContext): MethodResult {
  if (mcp.params.notifications !== undefined && !isPlainObject(mcp.params.notifications)) {
    throw invalidParams("params.notifications must be an object");
  }
  const tag = { [META.subscriptionId]: mcp.id };
  mcp.channel.send(notificationMessage("notifications/subscriptions/acknowledged", { _meta: tag, notifications: {} }));
  return { _meta: tag };
}
