/**
 * Scopes per definition: with sign-in on, a tool, prompt or resource that declares `scopes` is only
 * run for a token granted all of them; otherwise 403 `insufficient_scope` names every scope the
 * operation needs, in one challenge. Lists are never restricted. A broader scope covers the
 * narrower ones below it: `notes` covers `notes:write`.
 */
import type { McpContext } from "../../mcp/kit";
import { AuthError, refusalOf } from "./auth-error";
import type { OAuthSettings } from "./oauth-settings";

declare module "../../mcp/kit" {
  interface DefinitionOptions {
    /** With sign-in, the OAuth scopes a call needs (e.g. `["notes:write"]`), else 403 `insufficient_scope`; lists are never restricted. */
    readonly scopes?: readonly string[];
  }
}

const covers = (granted: string, required: string) => granted === required || required.startsWith(`${granted}:`);

/** The scopes in `required` that `granted` does not cover. */
export const missingScopes = (granted: readonly string[], required: readonly string[]): string[] =>
  required.filter((scope) => !granted.some((have) => covers(have, scope)));

/** The authorizer: throws 403 `insufficient_scope` when a signed-in caller lacks a scope the target declares. */
export const requireScopes =
  (oauth: OAuthSettings | undefined) =>
  ({ auth, target }: McpContext): void => {
    const required = target?.entry?.options.scopes ?? [];
    if (auth.via !== "oauth" || missingScopes(auth.scopes, required).length === 0) return;
    const error = new AuthError(
      403,
      "insufficient_scope",
      "The access token lacks a scope this operation needs",
      required,
    );
    throw refusalOf(error, oauth);
  };
