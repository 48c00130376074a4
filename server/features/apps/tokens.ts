/**
 * Single-use tokens, for a UI that asks the person itself: a tool hands the UI one in its result, and the UI's later call
 * (of the same caller) presents it to act once.
 * Sealed with the `requestState` keys (the client can neither read nor forge one), bound to a purpose of the author's and
 * to the caller, expiring; redeemed with the store's atomic claim, so exactly once on any number of instances.
 */
import { logWarning, nowSeconds, openToken, sealToken, useAtomicStore, type McpContext } from "../../mcp/kit";

/** What a token is sealed for: never a JSON-RPC method, so a token never opens as a `requestState`, nor one as a token. */
const bindingOf = (mcp: McpContext, purpose: string) => ({
  principal: mcp.principal,
  method: "single-use token",
  target: purpose,
  arguments: undefined,
});

/**
 * A token for `purpose` that this caller can redeem once with `redeemToken`, within `ttlSeconds` (default 15 minutes).
 * Put what the later call acts on into the purpose (`delete note 15`): a token then opens for that action only.
 * Undefined when this server cannot seal (a build without `NITRO_MCP_STATE_SECRET`), as for input requests.
 * @example
 * const deleteToken = await issueToken(mcp, `delete note ${note.id}`);
 * return { content: [{ type: "text", text: note.title }], structuredContent: { note, deleteToken } };
 */
export function issueToken(
  mcp: McpContext,
  purpose: string,
  { ttlSeconds = 900 }: { ttlSeconds?: number } = {},
): Promise<string | undefined> {
  return sealToken(bindingOf(mcp, purpose), {}, ttlSeconds);
}

/**
 * Redeems a token `issueToken` gave this caller for `purpose`: true once, on any instance; false for a token that does not
 * open (another purpose or caller, expired, forged, not a string) or was redeemed before (the reason is logged, never
 * answered). The claim uses the store's atomic operations, which every store of this template has.
 * @example
 * if (!(await redeemToken(mcp, `delete note ${note_id}`, token))) return toolError("This board is out of date: open it again.");
 * await deleteNote(note_id);
 */
export async function redeemToken(mcp: McpContext, purpose: string, token: unknown): Promise<boolean> {
  const store = useAtomicStore();
  if (!store) throw new Error("redeemToken needs a store with atomic operations: keep one of server/storage/");
  const opened = await openToken(token, bindingOf(mcp, purpose));
  // The claim outlives the token (a minute covers the clock skew it is opened with).
  const claimSeconds = opened.ok ? opened.claims.exp - nowSeconds() + 60 : 0;
  const fresh = opened.ok && (await store.setIfAbsent(`claim:${opened.claims.jti}`, "1", claimSeconds));
  if (!fresh) logWarning(`single-use token refused: ${opened.ok ? "redeemed before" : opened.reason}`);
  return fresh;
}
