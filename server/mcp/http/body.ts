/**
 * Reads the POST body as text with a size limit (413 above it).
 *
 * The rest of an oversized body is read and thrown away, up to DRAIN_FACTOR times the
 * limit, so the client gets its 413 cleanly instead of a reset connection; past that the
 * connection is closed. Nothing over the limit is ever kept in memory.
 */
import { getRequestWebStream, readRawBody, type H3Event } from "h3";
import { ErrorCode, McpError } from "../errors";
import { requestHeader } from "./request-headers";

const DRAIN_FACTOR = 4;

/** -32600 with HTTP 413. */
export class BodyTooLargeError extends McpError {
  constructor(
    limit: number,
    /** True when the whole body was read, so the connection can be reused. */
    readonly drained: boolean,
  ) {
    super(ErrorCode.InvalidRequest, `Request body is larger than ${limit} bytes`, undefined, 413);
  }
}

const decoder = new TextDecoder();

/** Chunked or oversized bodies: count as they stream, keep at most `limit` bytes. */
async function readCounted(event: H3Event, limit: number): Promise<Uint8Array> {
  const reader = getRequestWebStream(event)?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    size += next.value.byteLength;
    if (size > limit * DRAIN_FACTOR) {
      await reader!.cancel().catch(() => {});
      throw new BodyTooLargeError(limit, false);
    }
    if (size <= limit) chunks.push(next.value);
  }
  if (size > limit) throw new BodyTooLargeError(limit, true);
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

export async function readBodyText(event: H3Event, limit: number): Promise<string> {
  const declared = Number(requestHeader(event, "content-length") ?? Number.NaN);
  if (declared > limit * DRAIN_FACTOR) throw new BodyTooLargeError(limit, false);
  if (declared <= limit) {
    // The common case, and the fast one: a small body of known length.
    const raw = await readRawBody(event, false);
    if (raw && raw.length > limit) throw new BodyTooLargeError(limit, true);
    return raw ? decoder.decode(raw) : "";
  }
  return decoder.decode(await readCounted(event, limit));
}
