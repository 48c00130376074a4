/**
 * Scopes per definition: with sign-in on, a tool, prompt or resource that declares `scopes` is only
 * run for a token granted all of them; otherwise 403 `insufficient_scope` names every scope the
 * operation needs, in one challenge. Lists are never restricted. A broader scope covers the
 * narrower ones below it: `notes` covers `notes:write`.
 */
import type { AuthInfo, RequestTarget } from "../../mcp/context";
import { AuthError } from "./auth-error";

const covers = (granted: string, required: string) => granted === required || required.startsWith(`${granted}:`);

/** The scopes in `required` that `granted` does not cover. */
export const missingScopes = (granted: readonly string[], required: readonly string[]): string[] =>
  required.filter((scope) => !granted.some((have) => covers(have, scope)));

/** Throws 403 `insufficient_scope` when a signed-in caller lacks a scope the target declares. */
export function requireScopes(auth: AuthInfo, target: RequestTarget | undefined): void {
  const required = target?.entry?.scopes ?? [];
  if (auth.via !== "oauth" || missingScopes(auth.scopes, required).length === 0) return;
  throw new AuthError(403, "insufficient_scope", "The access token lacks a scope this operation needs", required);
}
