/**
 * A step of `POST /mcp`: who is calling? Sets `event.context.mcpAuth`. The sign-in feature, when present, decides (and
 * answers a refusal itself: 400, 401 with a challenge, 503); without it every caller is `anonymous`.
 */
import type { H3Event } from "h3";
import type { AuthInfo } from "../context";
import { useSignIn } from "../features";

const ANONYMOUS: AuthInfo = { principal: "anonymous", via: "anonymous", scopes: [] };

/** Step: the caller's identity on `event.context.mcpAuth`, or the refusal. */
export async function authenticate(event: H3Event): Promise<void> {
  const signIn = useSignIn();
  const auth = signIn ? await signIn.authenticate(event) : ANONYMOUS;
  if (auth) event.context.mcpAuth = auth;
}
