/**
 * The 2025 era's session, kept by the client: `initialize` answers with an `Mcp-Session-Id` that is a sealed token
 * (the `requestState` codec and keys, so the same secret, rotation and expiry) holding the negotiated version, the
 * capabilities the client declared that this server may use, and the principal. Any instance opens it; nothing is stored.
 *
 * Each sealed token here names its purpose in its authenticated data (`PURPOSE`), which no `requestState` binding uses:
 * a session never opens as a `requestState`, an answer's id never as a session, and the other way round.
 * A session that does not open (expired, tampered, another principal's, sealed with a key no longer configured) gets
 * 404, so the client initializes again, as the 2025 revisions prescribe; a request without one is served as before.
 */
import { getRequestHeader, type H3Event } from "h3";
import { keptCapabilities } from "./kept-capabilities";
import { SETTINGS } from "./settings";
import {
  ErrorCode,
  isPlainObject,
  logWarning,
  McpError,
  openToken as openSealed,
  sealToken as seal,
  useSettings,
  type RequestBinding,
} from "../../mcp/kit";

/** What each kind of token is sealed for: the `method` of its binding, never a JSON-RPC method that seals a `requestState`. */
export const PURPOSE = { session: "legacy session", answer: "legacy answer" } as const;

export interface LegacySession {
  /** The session's random id (never sent in clear): what an answer's id is bound to. */
  readonly id: string;
  readonly version: string;
  /** What the session keeps of the client's declaration: what handlers read as `mcp.clientCapabilities` (`kept-capabilities.ts`). */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** When it expires, in seconds since the epoch (what it remembers, its subscriptions, expires with it). */
  readonly expiresAt: number;
}

const bindingOf = (principal: string, purpose: string, scope: string): RequestBinding => ({
  principal,
  method: purpose,
  target: scope,
  arguments: undefined,
});

/** Seals `data` for `principal`, for one purpose and scope; undefined when this server cannot seal (no secret in a build). */
export async function sealToken(
  principal: string,
  purpose: string,
  scope: string,
  data: Record<string, unknown>,
  ttlSeconds: number,
): Promise<string | undefined> {
  return seal(bindingOf(principal, purpose, scope), data, ttlSeconds);
}

/** Opens a token sealed by `sealToken`: its id and data, or the reason it does not open (for the log). */
export const openToken = (token: unknown, principal: string, purpose: string, scope: string) =>
  openSealed(token, bindingOf(principal, purpose, scope));

/** The `Mcp-Session-Id` for a client that just initialized, or undefined when this server cannot seal one. */
export function mintSession(
  principal: string,
  version: string,
  declared: Readonly<Record<string, unknown>>,
): Promise<string | undefined> {
  const data = { v: version, c: keptCapabilities(version, declared) };
  return sealToken(principal, PURPOSE.session, "", data, useSettings(SETTINGS).legacySessionTtlSeconds);
}

/** Opens a presented `Mcp-Session-Id` for `principal`; undefined (the reason logged) when it does not open. */
export async function openSession(token: string, principal: string): Promise<LegacySession | undefined> {
  const opened = await openToken(token, principal, PURPOSE.session, "");
  const data = opened.ok ? opened.claims.data : undefined;
  if (!opened.ok || typeof data?.v !== "string") {
    logWarning(`Mcp-Session-Id rejected: ${opened.ok ? "malformed claims" : opened.reason}`);
    return undefined;
  }
  // A session sealed without capabilities (`c`) declares none: it still opens.
  const capabilities = isPlainObject(data.c) ? data.c : {};
  return { id: opened.claims.jti, version: data.v, capabilities, expiresAt: opened.claims.exp };
}

/** 404: the session is over (or never was ours); the client starts a new one with `initialize`. */
export const sessionNotFound = () =>
  new McpError(
    ErrorCode.InvalidRequest,
    "Session not found or expired: send initialize again, without Mcp-Session-Id",
    undefined,
    404,
  );

export const sessionHeader = (event: H3Event): string | undefined => getRequestHeader(event, "mcp-session-id");

/** The session a 2025-era request presents (none for `initialize`, which starts a new one): opened, or 404. */
export async function presentedSession(event: H3Event, method: string): Promise<LegacySession | undefined> {
  const token = sessionHeader(event);
  if (token === undefined || method === "initialize") return undefined;
  const session = await openSession(token, event.context.mcpAuth!.principal);
  if (!session) throw sessionNotFound();
  return session;
}

declare module "h3" {
  interface H3EventContext {
    /** The 2025-era session the request presented, once opened. */
    legacySession?: LegacySession;
  }
}
