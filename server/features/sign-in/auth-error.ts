/**
 * Refusals of the bearer scheme (RFC 6750 §3), answered with their HTTP status, a
 * `WWW-Authenticate` challenge and an OAuth-style body:
 * - 400 `invalid_request`: the Authorization header is malformed;
 * - 401: no token (no error code), or `invalid_token`;
 * - 403 `insufficient_scope`, with the scopes the operation needs, so the client can ask for them;
 * - 503 (IssuerUnavailableError): the authorization server cannot be asked, so nothing can be checked
 *   (fail closed); answered like the other 503s, a JSON-RPC -32603, with `Retry-After`, never as a bad token.
 * With sign-in on, every challenge names the protected-resource metadata (`resource_metadata`) and
 * the scopes to ask for; with static tokens only, it is `Bearer realm="mcp"`.
 */
import { ErrorCode, HttpRefusal, McpError, clip, logWarning } from "../../mcp/kit";
import type { OAuthSettings } from "./oauth-settings";
import { protectedResourceMetadataUrl } from "./protected-resource";

export type AuthErrorCode = "invalid_request" | "invalid_token" | "insufficient_scope";

export class AuthError extends Error {
  override name = "AuthError";
  constructor(
    readonly status: 400 | 401 | 403 | 503,
    /** Undefined for a request that simply carried no token. */
    readonly code: AuthErrorCode | undefined,
    /** For the client: a fixed sentence, never a token or a claim value. */
    readonly description: string,
    /** The scopes to ask for (403: what the operation needs). */
    readonly scopes?: readonly string[],
    /** For the operator's log only. */
    readonly reason?: string,
  ) {
    super(description);
  }
}

/** 401 `invalid_token`: the token presented is not one this server accepts; `reason` is for the operator's log only. */
export const invalidToken = (reason: string) =>
  new AuthError(401, "invalid_token", "The access token is not valid for this server", undefined, reason);

/**
 * The token cannot be checked now (the authorization server is unreachable, failing or in its back-off, or this server
 * is misconfigured): nothing is let through, and the token is not judged.
 */
export class IssuerUnavailableError extends AuthError {
  override name = "IssuerUnavailableError";
  constructor(
    reason: string,
    /** Until the next attempt: the `Retry-After` of the 503. */
    readonly retryAfterSeconds: number,
  ) {
    super(503, undefined, "Authorization server unavailable: try again shortly", undefined, reason);
  }
}

/** A challenge parameter value: quoted, with nothing that could end the quote or read as another parameter. */
const quoted = (value: string) => `"${value.replace(/["\\=]/g, "")}"`;

function challenge(error: AuthError, oauth: OAuthSettings | undefined): string {
  const parameters: string[] = [];
  if (error.code) parameters.push(`error=${quoted(error.code)}`, `error_description=${quoted(error.description)}`);
  if (!oauth) return ['Bearer realm="mcp"', ...parameters].join(", ");
  parameters.push(`resource_metadata=${quoted(protectedResourceMetadataUrl(oauth.resource))}`);
  const scopes = error.scopes ?? oauth.scopes;
  // An empty scope="" would be read as a scope named "" by some clients: leave it out instead.
  if (scopes.length) parameters.push(`scope=${quoted(scopes.join(" "))}`);
  return `Bearer ${parameters.join(", ")}`;
}

/**
 * What the request is answered with: the challenge (an `HttpRefusal`, answered as it is), or for an authorization server that
 * cannot be asked, the JSON-RPC -32603 with HTTP 503 and `Retry-After` that every other outage gets. Anything else as it is.
 */
export function refusalOf(error: unknown, oauth: OAuthSettings | undefined): unknown {
  if (!(error instanceof AuthError)) return error;
  // The reason may quote the token's own header or claims: cut, so a forged token cannot make a huge line.
  if (error.reason) logWarning(`${error.status}${error.code ? ` ${error.code}` : ""}: ${clip(error.reason, 500)}`);
  if (error instanceof IssuerUnavailableError) {
    return new McpError(ErrorCode.InternalError, error.description, undefined, 503, {
      "retry-after": String(error.retryAfterSeconds),
      "cache-control": "no-store",
    });
  }
  const headers = {
    "content-type": "application/json",
    "cache-control": "no-store",
    "www-authenticate": challenge(error, oauth),
  };
  const body = JSON.stringify({ error: error.code ?? "invalid_request", error_description: error.description });
  return new HttpRefusal(error.status, headers, body, error.description);
}
