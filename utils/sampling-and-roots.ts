/**
 * Sampling and roots as input requests.
 *
 * Both are DEPRECATED in protocol 2026-07-28 (SEP-2577) and stay in the spec for at least
 * twelve months. Prefer calling your LLM provider directly (instead of sampling) and taking
 * directories or files as tool arguments (instead of roots). They are here because existing
 * clients still answer them, and because the conformance suite exercises them.
 */
import { CreateMessageResultSchema, ListRootsResultSchema } from "@modelcontextprotocol/core";
import { askFor, type AskFor } from "../server/mcp/input-requests";
import type { CreateMessageRequestParams, CreateMessageResult, ListRootsResult } from "../server/mcp/protocol";

/**
 * @deprecated Sampling is deprecated in 2026-07-28. Asks the client's model for a completion.
 *
 * @example
 * const ask = { capital: createMessage({ messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }], maxTokens: 50 }) };
 */
export function createMessage(params: CreateMessageRequestParams): AskFor<CreateMessageResult> {
  return askFor({ method: "sampling/createMessage", params }, (raw) => {
    const parsed = CreateMessageResultSchema.safeParse(raw);
    return parsed.success ? (parsed.data as CreateMessageResult) : undefined;
  });
}

/**
 * @deprecated Roots are deprecated in 2026-07-28. Asks the client for its root directories.
 *
 * @example
 * const ask = { roots: listRoots() };
 */
export function listRoots(): AskFor<ListRootsResult> {
  return askFor({ method: "roots/list" }, (raw) => {
    const parsed = ListRootsResultSchema.safeParse(raw);
    return parsed.success ? (parsed.data as ListRootsResult) : undefined;
  });
}
