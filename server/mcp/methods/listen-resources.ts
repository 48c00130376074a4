/**
 * Resource updates for 2026-07-28 clients: `subscriptions/listen` with `notifications.resourceSubscriptions`
 * (URIs this server serves, at most MAX_URIS) honours those the bus can subscribe to (all, unless it is unreachable
 * or at its bounds), and its stream then carries `notifications/resources/updated` each time a handler says one of
 * them changed (`resourceChanged`, see `resource-updates.ts`), on whichever instance: the bus has a channel per URI.
 * The stream ends gracefully after STREAM_LIFETIME_MS (under Vercel's default 300 s limit on a function),
 * or when the client goes away; the client listens again to go on.
 */
import { useMessageBus, type BusSubscription } from "../bus";
import type { McpContext, RequestTarget } from "../context";
import { invalidParams } from "../errors";
import { logWarning } from "../log";
import { useSignIn, type ListenSource } from "../features";
import { notificationMessage } from "../protocol";
import { registry } from "../registry";
import { resourceChannel } from "../resource-updates";

/** Bounds shared with the 2025 era's `resources/subscribe` (the legacy feature): URIs per stream or session, length of one. */
export const MAX_URIS = 20;
export const MAX_URI_LENGTH = 2048;
/** How long a stream of updates lasts (also the 2025 era's GET stream). */
export const STREAM_LIFETIME_MS = 280_000;

/** The resource at `uri` as a request target, or -32602 when no resource on this server has that URI. */
export function servedResource(uri: string): RequestTarget {
  const found = registry.findResource(uri);
  if (!found) throw invalidParams(`no resource on this server has the URI ${JSON.stringify(uri)}`);
  return { field: "uri", name: uri, ...found };
}

/** The URIs asked for, checked (-32602); those the caller may not read (sign-in's scopes, as for `resources/read`) are left out. */
function requestedUris(mcp: McpContext, notifications: Readonly<Record<string, unknown>>): string[] {
  const uris = notifications.resourceSubscriptions;
  if (uris === undefined) return [];
  if (!Array.isArray(uris) || uris.length > MAX_URIS || !uris.every((uri) => typeof uri === "string" && uri.length <= MAX_URI_LENGTH)) {
    throw invalidParams(`params.notifications.resourceSubscriptions must be a list of at most ${MAX_URIS} resource URIs`);
  }
  const targets = [...new Set(uris as string[])].map(servedResource);
  return targets.filter((target) => mayRead(mcp, target)).map((target) => target.name);
}

/** True when the caller may read `target` (sign-in's scopes, as for `resources/read`). */
export function mayRead(mcp: McpContext, target: RequestTarget): boolean {
  try {
    useSignIn()?.authorize(mcp.auth, target);
    return true;
  } catch {
    return false;
  }
}

/** Sends each update heard on `subscription` until the deadline, or until the subscription closes (nothing then comes). */
async function carry(mcp: McpContext, uri: string, subscription: BusSubscription, tag: Record<string, unknown>, deadline: number): Promise<void> {
  while ((await subscription.next(deadline - Date.now())) !== undefined) {
    mcp.channel.send(notificationMessage("notifications/resources/updated", { _meta: tag, uri }));
  }
}

export const resourceUpdates: ListenSource = {
  async open(mcp, notifications) {
    const requested = requestedUris(mcp, notifications);
    const bus = useMessageBus();
    if (!requested.length || !bus) return { honoured: {}, watch: async () => {} };
    // A URI that cannot be subscribed to now (the bus unreachable, or at its bounds) is left out of the acknowledgement.
    const subscribed = await Promise.allSettled(requested.map(async (uri) => bus.subscribe(await resourceChannel(uri), mcp.principal)));
    const failed = subscribed.find((outcome) => outcome.status === "rejected");
    if (failed) logWarning(`subscriptions/listen: some resource updates are not honoured (${String(failed.reason)})`);
    const watched = requested.flatMap((uri, index) => (subscribed[index]!.status === "fulfilled" ? [{ uri, subscription: subscribed[index]!.value }] : []));
    if (!watched.length) return { honoured: {}, watch: async () => {} };
    const closeAll = () => watched.forEach(({ subscription }) => subscription.close());
    return {
      honoured: { resourceSubscriptions: watched.map(({ uri }) => uri) },
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
};
