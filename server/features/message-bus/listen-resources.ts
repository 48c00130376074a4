/**
 * Resource updates for 2026-07-28 clients: `subscriptions/listen` with `notifications.resourceSubscriptions`
 * (URIs this server serves, at most MAX_URIS) honours those the bus can subscribe to (all, unless it is unreachable
 * or at its bounds), and its stream then carries `notifications/resources/updated` each time a handler says one of
 * them changed (`resourceChanged`, see `server/mcp/resource-updates.ts`), on whichever instance: the bus has a channel
 * per URI. The stream ends gracefully after STREAM_LIFETIME_MS, or when the client goes away.
 */
import type { BusSubscription, MessageBus } from "../../mcp/bus";
import type { McpContext } from "../../mcp/context";
import { invalidParams } from "../../mcp/errors";
import type { ListenSource } from "../../mcp/features";
import { logWarning } from "../../mcp/log";
import { MAX_URI_LENGTH, MAX_URIS, STREAM_LIFETIME_MS, mayRead, servedResource } from "../../mcp/methods/listen";
import { notificationMessage } from "../../mcp/protocol";
import { resourceChannel } from "../../mcp/resource-updates";

/** The URIs asked for, checked (-32602); those the caller may not read (sign-in's scopes, as for `resources/read`) are left out. */
function requestedUris(mcp: McpContext, notifications: Readonly<Record<string, unknown>>): string[] {
  const uris = notifications.resourceSubscriptions;
  if (uris === undefined) return [];
  if (
    !Array.isArray(uris) ||
    uris.length > MAX_URIS ||
    !uris.every((uri) => typeof uri === "string" && uri.length <= MAX_URI_LENGTH)
  ) {
    throw invalidParams(
      `params.notifications.resourceSubscriptions must be a list of at most ${MAX_URIS} resource URIs`,
    );
  }
  const targets = [...new Set(uris as string[])].map(servedResource);
  return targets.filter((target) => mayRead(mcp, target)).map((target) => target.name);
}

/** Sends each update heard on `subscription` until the deadline, or until the subscription closes (nothing then comes). */
async function carry(
  mcp: McpContext,
  uri: string,
  subscription: BusSubscription,
  tag: Record<string, unknown>,
  deadline: number,
): Promise<void> {
  while ((await subscription.next(deadline - Date.now())) !== undefined) {
    mcp.channel.send(notificationMessage("notifications/resources/updated", { _meta: tag, uri }));
  }
}

/** The listen source of resource updates, over `bus`. */
export const resourceUpdates = (bus: MessageBus): ListenSource => ({
  async open(mcp, notifications) {
    const requested = requestedUris(mcp, notifications);
    if (!requested.length) return { honoured: {}, watch: async () => {} };
    // A URI that cannot be subscribed to now (the bus unreachable, or at its bounds) is left out of the acknowledgement.
    const subscribed = await Promise.allSettled(
      requested.map(async (uri) => bus.subscribe(await resourceChannel(uri), mcp.principal)),
    );
    const failed = subscribed.find((outcome) => outcome.status === "rejected");
    if (failed) logWarning(`subscriptions/listen: some resource updates are not honoured (${String(failed.reason)})`);
    const watched = requested.flatMap((uri, index) =>
      subscribed[index]!.status === "fulfilled" ? [{ uri, subscription: subscribed[index]!.value }] : [],
    );
    if (!watched.length) return { honoured: {}, watch: async () => {} };
    const closeAll = () => {
      for (const { subscription } of watched) subscription.close();
    };
    return {
      honoured: { resourceSubscriptions: watched.map(({ uri }) => uri) },
      close: closeAll,
      async watch(tag) {
        mcp.signal.addEventListener("abort", closeAll, { once: true });
        if (mcp.signal.aborted) closeAll(); // gone before the acknowledgement was sent
        const deadline = Date.now() + STREAM_LIFETIME_MS;
        try {
          await Promise.all(watched.map(({ uri, subscription }) => carry(mcp, uri, subscription, tag, deadline)));
        } finally {
          mcp.signal.removeEventListener("abort", closeAll);
          closeAll();
        }
      },
    };
  },
});
