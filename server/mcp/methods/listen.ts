/**
 * `subscriptions/listen`. The acknowledgement comes first and says which of the requested
 * notifications this server honours:
 * - list changes: none. Its lists only change with a deploy, so it declares no `listChanged`;
 * - `resourceSubscriptions`: updates of the resources asked for (`listen-resources.ts`);
 * - whatever a feature can carry (`addListenSource` in features.ts: with the tasks feature, the status of
 *   the caller's tasks among the `taskIds` asked for). The stream then carries those notifications until
 *   each source is done or the client goes away.
 * With nothing to carry, the subscription ends gracefully at once.
 */
import type { McpContext } from "../context";
import { invalidParams } from "../errors";
import { listenSources } from "../features";
import { isPlainObject } from "../internal/basics";
import { notificationMessage, META } from "../protocol";
import { resourceUpdates } from "./listen-resources";
import type { MethodResult } from "./types";

export async function listen(mcp: McpContext): Promise<MethodResult> {
  const notifications = mcp.params.notifications ?? {};
  if (!isPlainObject(notifications)) throw invalidParams("params.notifications must be an object");
  // The features' sources first: one that refuses the request does so before the bus is subscribed to.
  const opened = await Promise.all(listenSources().map((source) => source.open(mcp, notifications)));
  opened.push(await resourceUpdates.open(mcp, notifications));
  const tag = { [META.subscriptionId]: mcp.id };
  const honoured = Object.assign({}, ...opened.map((source) => source.honoured)) as Record<string, unknown>;
  mcp.channel.send(notificationMessage("notifications/subscriptions/acknowledged", { _meta: tag, notifications: honoured }));
  await Promise.all(opened.map((source) => source.watch(tag)));
  return { _meta: tag };
}
