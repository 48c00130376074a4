/**
 * Reads the POST body as text with a size limit. A declared `Content-Length` over the
 * limit is refused before a byte is read; a chunked body is counted as it streams and
 * cut off as soon as it passes the limit.
 */
import { getRequestWebStream, readRawBody, type H3Event } from "h3";

export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
  constructor(readonly limit: number) {
    super(`Request body is larger than ${limit} bytes`);
  }
}

const decoder = new TextDecoder();

export async function readBodyText(event: H3Event, limit: number): Promise<string> {
  const declared = event.headers.get("content-length");
  if (declared !== null) {
    if (Number(declared) > limit) throw new BodyTooLargeError(limit);
    const raw = await readRawBody(event, false);
    if (raw && raw.length > limit) throw new BodyTooLargeError(limit);
    return raw ? decoder.decode(raw) : "";
  }
  const stream = getRequestWebStream(event);
  if (!stream) return "";
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decoder.decode(body);
}
