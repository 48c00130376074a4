/** `subscriptions/listen`: the acknowledgement of what the features' listen sources honour, then their notifications. */
import type { McpContext, RequestTarget } from "../context";
import { invalidParams } from "../errors";
import { listenSources, useSignIn, type OpenedListen } from "../features";
import { isPlainObject } from "../internal/basics";
import { notificationMessage, META } from "../protocol";
import { registry } from "../registry";
import type { MethodResult } from "./types";

/** Bounds of a resource subscription, in both eras: URIs per stream or session, length of one. */
export const MAX_URIS = 20;
export const MAX_URI_LENGTH = 2048;
/** How long a stream of updates lasts (under Vercel's default 300 s limit on a function); the client then listens again. */
export const STREAM_LIFETIME_MS = 280_000;

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

export async function listen(mcp: McpContext): Promise<MethodResult> {
  const notifications = mcp.params.notifications ?? {};
  if (!isPlainObject(notifications)) throw invalidParams("params.notifications must be an object");
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
  await Promise.all(sources.map((source) => source.watch(tag)));
  return { _meta: tag };
}
