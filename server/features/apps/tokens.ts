/**
 * Single-use tokens, for a UI that asks the person itself: a tool hands the UI one in its result, and the UI's later call
 * (of the same caller) presents it to act once.
 * Sealed with the `requestState` keys (the client can neither read nor forge one), bound to a purpose of the author's and
 * to the caller, expiring; redeemed with the store's atomic claim, so exactly once on any number of instances.
 */
import { claimOnce, logWarning, openToken, sealToken, useAtomicStore, type McpContext } from "../../mcp/kit";

/** What a token is sealed for: never a JSON-RPC method, so a token never opens as a `requestState`, nor one as a token. */
const bindingOf = (mcp: McpContext, purpose: string) => ({
  principal: mcp.principal,
  method: "single-use token",
  target: purpose,
  arguments: undefined,
});

/** The longest a token may live: a day. */
const MAX_TTL_SECONDS = 86_400;

/**
 * A token for `purpose` that this caller can redeem once with `redeemToken`, within `ttlSeconds` (a whole number of
 * seconds up to a day; 15 minutes by default). Name the tool and what the later call acts on in the purpose
 * (`delete_note_from_board: note 15`): a token then opens for that action only. Hand it to the UI in the result's `_meta`,
 * which hosts keep from the model: `content` and `structuredContent` may reach it, and the model could then act without
 * the person. Undefined when this server cannot seal (no `NITRO_MCP_STATE_SECRET` in a build) or claim (a store without
 * atomic operations).
 * @example
 * const deleteToken = await issueToken(mcp, `delete_note_from_board: note ${note.id}`);
 * return { content: [{ type: "text", text: note.title }], structuredContent: { note }, _meta: { deleteToken } };
 */
export function issueToken(
  mcp: McpContext,
  purpose: string,
  { ttlSeconds = 900 }: { ttlSeconds?: number } = {},
): Promise<string | undefined> {
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_TTL_SECONDS)
    throw new Error(`issueToken: ttlSeconds must be a whole number from 1 to ${MAX_TTL_SECONDS}, not ${ttlSeconds}`);
  if (!useAtomicStore()) return Promise.resolve(undefined);
  return sealToken(bindingOf(mcp, purpose), {}, ttlSeconds);
}

/**
 * Redeems a token `issueToken` gave this caller for `purpose`: true once, on any instance; false for a token that does not
 * open (another purpose or caller, expired, forged, not a string) or was redeemed before (the reason is logged, never
 * answered). Without sign-in every caller is the same anonymous one: a token is then good for whoever holds it.
 * @example
 * if (!(await redeemToken(mcp, `delete_note_from_board: note ${note_id}`, token))) return toolError("Open the board again.");
 * await deleteNote(note_id);
 */
export async function redeemToken(mcp: McpContext, purpose: string, token: unknown): Promise<boolean> {
  const opened = await openToken(token, bindingOf(mcp, purpose));
  const fresh = opened.ok && (await claimOnce(opened.claims));
  if (!fresh) logWarning(`single-use token refused: ${opened.ok ? "redeemed before" : opened.reason}`);
  return fresh;
}
