/** `subscriptions/listen`: the acknowledgement of what the features' listen sources honour, then their notifications. */
import type { McpContext } from "../context";
import { invalidParams } from "../errors";
import { registered, type OpenedListen } from "../hooks";
import { isPlainObject } from "../internal/basics";
import { notificationMessage, META } from "../protocol";
import { streamDeadline, takeShare } from "../shares";
import type { MethodResult } from "./types";

/**
 * Opens what the sources honour and acknowledges it, then carries their notifications until `streamDeadline()` or the client
 * goes; the stream counts against the caller's share of open streams (429 past it).
 */
export async function listen(mcp: McpContext): Promise<MethodResult> {
  const notifications = mcp.params.notifications ?? {};
  if (!isPlainObject(notifications)) throw invalidParams("params.notifications must be an object");
  const release = takeShare("streams", mcp.caller);
  try {
    const opened = await Promise.allSettled(registered.listenSources.map((source) => source.open(mcp, notifications)));
    const refused = opened.find((outcome) => outcome.status === "rejected");
    if (refused) {
      // One source refused the request: the others let go of what they opened (bus subscriptions) before the error goes out.
      for (const outcome of opened) if (outcome.status === "fulfilled") outcome.value.close?.();
      throw refused.reason;
    }
    const sources = opened.map((outcome) => (outcome as PromiseFulfilledResult<OpenedListen>).value);
    const tag = { [META.subscriptionId]: mcp.id };
    const honoured = Object.assign({}, ...sources.map((source) => source.honoured)) as Record<string, unknown>;
    mcp.channel.send(
      notificationMessage("notifications/subscriptions/acknowledged", { _meta: tag, notifications: honoured }),
    );
    const deadline = streamDeadline();
    await Promise.all(sources.map((source) => source.watch(tag, deadline)));
    return { _meta: tag };
  } finally {
    release();
  }
}
