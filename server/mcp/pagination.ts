/** Cursor pagination for the list methods: an opaque cursor holds its list and an offset (-32602 for any other). */
import { invalidParams } from "./errors";
import { base64UrlDecode, base64UrlEncode, utf8Encode } from "./internal/basics";

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
}

/** Cursors this server issues are short; anything longer is not one of them (and is not decoded). */
const MAX_CURSOR_LENGTH = 128;

function decodeCursor(cursor: unknown, list: string): number {
  const bytes = typeof cursor === "string" && cursor.length <= MAX_CURSOR_LENGTH ? base64UrlDecode(cursor) : null;
  // Not fatal: bytes that are not UTF-8 decode to U+FFFD, which no list's name holds, so such a cursor is refused below.
  const match = /^(.+):(\d{1,9})$/.exec(bytes ? new TextDecoder().decode(bytes) : "");
  if (!match || match[1] !== list)
    throw invalidParams("Invalid cursor: pass a nextCursor this server returned for the same list");
  return Number(match[2]);
}

/**
 * One page of `items` (already in their deterministic order) starting at `cursor`.
 * @example const page = paginate(children, mcp.params.cursor, useMcpConfig().pageSize, "directory");
 */
export function paginate<T>(items: readonly T[], cursor: unknown, pageSize: number, list: string): Page<T> {
  const start = cursor === undefined ? 0 : decodeCursor(cursor, list);
  const end = start + pageSize;
  const page = items.slice(start, end);
  return end < items.length
    ? { items: page, nextCursor: base64UrlEncode(utf8Encode(`${list}:${end}`)) }
    : { items: page };
}
