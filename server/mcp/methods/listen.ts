/** `subscriptions/listen`: the acknowledgement of what the features' listen sources honour, then their notifications. */
import { useMcpConfig } from "../config";
import type { McpContext, RequestTarget } from "../context";
import { invalidParams } from "../errors";
import { listenSources, useSignIn, type OpenedListen } from "../features";
import { isPlainObject } from "../internal/basics";
import { notificationMessage, META } from "../protocol";
import { registry } from "../registry";
import { takeShare } from "../shares";
import type { MethodResult } from "./types";

/** Bounds of a resource subscription, in both eras: URIs per stream or session, length of one. */
export const MAX_URIS = 20;
export const MAX_URI_LENGTH = 2048;
/**
 * When a stream opened now must end (`NITRO_MCP_STREAM_SECONDS`, under every platform's limit on a response): every stream
 * the server holds open waiting (a listen, a 2025-era GET stream or question) ends by then; the client opens another.
 */
export const streamDeadline = (): number => Date.now() + useMcpConfig().streamSeconds * 1000;

/** The resource at `uri` as a request target, or -32602 when no resource on this server has that URI. */
export function servedResource(uri: string): RequestTarget {
  const found = registry.findResource(uri);
  if (!found) throw invalidParams(`no resource on this server has the URI ${JSON.stringify(uri)}`);
  return { field: "uri", name: uri, ...found };
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

/**
 * Opens what the sources honour and acknowledges it, then carries their notifications until `streamDeadline()` or the client
 * goes; the stream counts against the caller's share of open streams (-32029, 429, past it).
 */
export async function listen(mcp: McpContext): Promise<MethodResult> {
  const notifications = mcp.params.notifications ?? {};
  if (!isPlainObject(notifications)) throw invalidParams("params.notifications must be an object");
  const release = takeShare("streams", mcp.caller);
  try {
    const opened = await Promise.allSettled(listenSources().map((source) => source.open(mcp, notifications)));
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
