/**
 * What an introspection endpoint's refusal means for the request that asked. issuer-fetch.ts hands over
 * every 4xx but 429 (which is the issuer asking to be left alone: a back-off for everyone, as long as it
 * asks) without starting any back-off, since the request carried one caller's token and that caller may
 * have chosen it to provoke the refusal. Each refusal is therefore one of:
 *
 * - an answer about the token: 401 `invalid_token` for this request, cached like any other verdict;
 * - a fault of this server's configuration, or a refusal no one can pin on the token: 503 for this request
 *   alone, with the reason in the operator's log. The client keeps its token (blaming it would send every
 *   client to sign in again, for nothing) and no other caller is held back.
 */
import { type AuthError, IssuerUnavailableError, invalidToken } from "./auth-error";
import { BACKOFF_SECONDS, type IssuerRefusal } from "./issuer-fetch";

/** RFC 6749 §5.2 codes about the client that asked (this server), not about the token it asked about. */
const CLIENT_ERRORS = new Set(["invalid_client", "unauthorized_client"]);

const CREDENTIALS =
  "this server's client credentials were refused: check NITRO_MCP_AUTH_CLIENT_ID and NITRO_MCP_AUTH_CLIENT_SECRET";

/** The refusal as this request's answer: 401 invalid_token, or a 503 for this request alone. */
export function refusalVerdict(refusal: IssuerRefusal): AuthError {
  const aboutTheToken = () => invalidToken(`introspection refused the token: ${refusal.message}`);
  const notTheToken = (reason: string) => new IssuerUnavailableError(`${refusal.message}: ${reason}`, BACKOFF_SECONDS);
  switch (refusal.status) {
    // Every request this server sends there is the same but for the token: a malformed request is a malformed
    // token, unless the error names this server as the client at fault.
    case 400:
      return refusal.error && CLIENT_ERRORS.has(refusal.error) ? notTheToken(CREDENTIALS) : aboutTheToken();
    // The token is larger than the endpoint takes (a body limit), or cannot be processed: no retry changes that.
    case 413:
    case 422:
      return aboutTheToken();
    // RFC 7662 §2.3: this server's own credentials are wrong, or it may not introspect. A misconfiguration.
    // (A filter in front of the endpoint that dislikes a body answers 403 too: one more reason to hold nobody else back.)
    case 401:
    case 403:
      return notTheToken(CREDENTIALS);
    // The URL answers, but is not an introspection endpoint that takes a form POST. A misconfiguration.
    case 404:
    case 405:
    case 415:
      return notTheToken(
        "not an introspection endpoint: check NITRO_MCP_AUTH_INTROSPECTION_URL (or the metadata's introspection_endpoint)",
      );
    // Anything else (408, 409, 410…) says nothing for sure about the token: it is not judged, and this request may retry.
    default:
      return notTheToken("the token could not be checked");
  }
}
