/**
 * Resource updates for 2026-07-28 clients: `subscriptions/listen` with `notifications.resourceSubscriptions`
 * (URIs this server serves, at most MAX_SUBSCRIBED_URIS) honours them all, or refuses (the caller's share of subscriptions used
 * up: 429; the bus unreachable: 503), and its stream then carries `notifications/resources/updated` each time a handler says
 * one of them changed (`resourceChanged`, see `utils/notifications.ts`), on whichever instance: the bus has a channel
 * per URI. The stream ends gracefully by the core's stream deadline, or when the client goes away.
 */
import {
  MAX_SUBSCRIBED_URIS,
  MAX_URI_LENGTH,
  invalidParams,
  mayAct,
  notificationMessage,
  resourceChannel,
  servedResource,
  type BusSubscription,
  type ListenSource,
  type McpContext,
  type MessageBus,
} from "../../mcp/kit";

/** The URIs asked for, checked (-32602); those the caller may not read (sign-in's scopes, as for `resources/read`) are left out. */
function requestedUris(mcp: McpContext, notifications: Readonly<Record<string, unknown>>): string[] {
  const uris = notifications.resourceSubscriptions;
  if (uris === undefined) return [];
  if (
    !Array.isArray(uris) ||
    uris.length > MAX_SUBSCRIBED_URIS ||
    !uris.every((uri) => typeof uri === "string" && uri.length <= MAX_URI_LENGTH)
  ) {
    throw invalidParams(
      `params.notifications.resourceSubscriptions must be a list of at most ${MAX_SUBSCRIBED_URIS} resource URIs`,
    );
  }
  const targets = [...new Set(uris as string[])].map(servedResource);
  return targets.filter((target) => mayAct(mcp, "resources/read", target)).map((target) => target.name);
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
    // Every URI asked for, or none: a URI that cannot be subscribed to now (the caller's share of subscriptions used up, the
    // bus unreachable) refuses the listen with its reason, rather than leaving the URI silently unwatched.
    const subscribed = await Promise.allSettled(
      requested.map(async (uri) =>
        bus.subscribe(await resourceChannel(uri), { principal: mcp.principal, caller: mcp.caller }),
      ),
    );
    const watched = requested.flatMap((uri, index) =>
      subscribed[index]!.status === "fulfilled" ? [{ uri, subscription: subscribed[index]!.value }] : [],
    );
    const failed = subscribed.find((outcome) => outcome.status === "rejected");
    if (failed) {
      for (const { subscription } of watched) subscription.close();
      throw failed.reason;
    }
    const closeAll = () => {
      for (const { subscription } of watched) subscription.close();
    };
    return {
      honoured: { resourceSubscriptions: watched.map(({ uri }) => uri) },
      close: closeAll,
      async watch(tag, deadline) {
        mcp.signal.addEventListener("abort", closeAll, { once: true });
        if (mcp.signal.aborted) closeAll(); // gone before the acknowledgement was sent
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
