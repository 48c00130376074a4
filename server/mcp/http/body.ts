/**
 * The POST body as text, bounded in size (413), time (408) and memory. An oversized body is drained up to DRAIN_FACTOR
 * times the limit, so the client gets its 413 rather than a reset; a client trickling bytes gets 408 and a closed connection.
 */
import type { IncomingMessage } from "node:http";
import type { H3Event } from "h3";
import { ErrorCode, invalidRequest, McpError } from "../errors";
import { requestHeader } from "../protocol";

// One timer checks every deadline, at most TICK_MS late: a timer each costs more than most of what it bounds (a body read, a
// memory store's operation).
const TICK_MS = 250;
const pending = new Set<{ readonly at: number; readonly expire: () => void }>();
let timer: ReturnType<typeof setInterval> | undefined;

function sweep(): void {
  const now = performance.now();
  for (const deadline of pending) {
    if (deadline.at > now) continue;
    pending.delete(deadline);
    deadline.expire();
  }
  if (pending.size === 0) {
    clearInterval(timer);
    timer = undefined;
  }
}

/**
 * Calls `expire` once `ms` have passed, unless the returned function is called first: Node's deadlines, this read's and the
 * store's operations (`#mcp-platform`). Not for Workers, where a timer ends with the request that set it.
 */
export function setDeadline(ms: number, expire: () => void): () => void {
  const deadline = { at: performance.now() + ms, expire };
  pending.add(deadline);
  if (!timer) {
    timer = setInterval(sweep, TICK_MS);
    // Never what keeps a process alive (`unref` exists on Node's timers, not on every runtime's).
    (timer as { unref?: () => void }).unref?.();
  }
  return () => pending.delete(deadline);
}

const DRAIN_FACTOR = 4;
const FIRST_BUFFER_BYTES = 16 * 1024;

export class BodyTooLargeError extends McpError {
  constructor(
    limit: number,
    /** True when the whole body was read, so the connection can be reused. */
    readonly drained: boolean,
  ) {
    super(ErrorCode.InvalidRequest, `Request body is larger than ${limit} bytes`, undefined, 413);
  }
}

/** -32600 with HTTP 408: the body did not arrive in time. The connection is closed. */
export class BodyTimeoutError extends McpError {
  constructor(timeoutMs: number) {
    super(ErrorCode.InvalidRequest, `Request body not received within ${timeoutMs} ms`, undefined, 408);
  }
}

const decoder = new TextDecoder();

/**
 * A body read's bounds: at most `maxBytes`, within `timeoutMs`; `hold`, called once if the body is not whole when read
 * (it must be waited for, held in memory meanwhile), takes a unit of the caller's share of bodies and
 * returns what gives it back, or throws the refusal (429) that ends the read.
 */
export interface BodyLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly hold?: () => () => void;
}

function readStream(request: IncomingMessage, declared: number, { maxBytes: limit, timeoutMs, hold }: BodyLimits) {
  return new Promise<Uint8Array>((resolve, reject) => {
    // One chunk is kept as it came; a second starts a buffer grown by doubling (not sized by Content-Length: a client could declare the limit and trickle bytes).
    let first: Uint8Array | undefined;
    let buffer: Uint8Array | undefined;
    let size = 0;
    let settled = false;
    let release: (() => void) | undefined;
    const settle = (error: Error | undefined, body?: Uint8Array) => {
      if (settled) return;
      settled = true;
      cancelDeadline();
      release?.();
      // Listeners stay on a body read to its end (removing them cost 3 % of a request's work), but keep none of its bytes.
      first = buffer = undefined;
      if (error) {
        request.off("data", onData).off("end", onEnd);
        request.pause();
        reject(error);
      } else resolve(body!);
    };
    const onData = (chunk: Uint8Array) => {
      size += chunk.byteLength;
      // Not whole with its first bytes (or of no declared length): it is held while the rest comes, so it takes a share.
      if (hold && size === chunk.byteLength && !(size >= declared)) {
        try {
          release = hold();
        } catch (refused) {
          return settle(refused as Error);
        }
      }
      if (size > limit * DRAIN_FACTOR) return settle(new BodyTooLargeError(limit, false));
      if (size > limit) return; // read and discard: the 413 comes at the end
      if (size === chunk.byteLength) {
        first = chunk;
        return;
      }
      if (!buffer || size > buffer.byteLength) {
        const grown = new Uint8Array(
          Math.min(limit, Math.max(size, FIRST_BUFFER_BYTES, (buffer?.byteLength ?? 0) * 2)),
        );
        grown.set(buffer ? buffer.subarray(0, size - chunk.byteLength) : first!);
        buffer = grown;
        first = undefined;
      }
      buffer.set(chunk, size - chunk.byteLength);
    };
    const onEnd = () => {
      if (size > limit) return settle(new BodyTooLargeError(limit, true));
      settle(undefined, buffer ? buffer.subarray(0, size) : (first ?? new Uint8Array(0)));
    };
    const cancelDeadline = setDeadline(timeoutMs, () => settle(new BodyTimeoutError(timeoutMs)));
    // No "close" listener (it cost as much as the rest of the read): a client gone mid-body errors the request ("aborted"),
    // as a broken framing does; one gone before this step left it destroyed, and no error follows. Each is the client's
    // doing, answered (if anyone still listens) as such, not as ours.
    const incomplete = () => settle(invalidRequest("Request body ended before it was complete"));
    if (request.destroyed) return incomplete();
    request.on("data", onData).on("end", onEnd).on("error", incomplete);
  });
}

/**
 * The body when it is whole already: one Nitro's local fetch carried (the in-process test server), or every byte its
 * `Content-Length` declared, buffered before this step (most bodies arrive with their headers), taken at once: no listener,
 * deadline or share. Not from a client gone (`readStream` answers it as such) or with chunked framing (which a lenient parser
 * lets override the length).
 */
function wholeBody(request: IncomingMessage & { body?: unknown }, declared: number): Uint8Array | undefined {
  if (typeof request.body === "string") return new TextEncoder().encode(request.body);
  if (request.body !== undefined) return request.body as Uint8Array;
  const buffered = request.readableLength === declared && request.readableFlowing === null;
  if (buffered && !request.destroyed && !request.headers["transfer-encoding"])
    return request.read() ?? new Uint8Array(0);
}

/** The body as text, read from the request's socket (Node and Vercel) within `limits`. */
export async function readBodyText(event: H3Event, limits: BodyLimits): Promise<string> {
  const declared = Number(requestHeader(event, "content-length") ?? Number.NaN);
  if (declared > limits.maxBytes * DRAIN_FACTOR) throw new BodyTooLargeError(limits.maxBytes, false);
  const request = event.node.req;
  const whole = wholeBody(request, declared);
  if (!whole) return decoder.decode(await readStream(request, declared, limits));
  if (whole.byteLength > limits.maxBytes) throw new BodyTooLargeError(limits.maxBytes, true);
  return decoder.decode(whole);
}
