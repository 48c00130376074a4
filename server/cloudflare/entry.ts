/**
 * The Worker entry: Nitro's `cloudflare-durable` one, bounding bodies before Nitro buffers them whole (413, 408, a refused body drained up
 * to a cap), and its Durable Object with the methods of this build's stores (RPC only, no URL reaches them).
 */
import nitroWorker, {
  $DurableObject as NitroDurableObject,
} from "nitropack/presets/cloudflare/runtime/cloudflare-durable";
import { BodyTimeoutError, BodyTooLargeError } from "../mcp/http/body";
import { errorBody, errorMessage } from "../mcp/protocol";
import { SETTINGS } from "../mcp/settings";
import { durableMethods } from "#mcp-durable-methods";

/** Past this many bytes, a refused body is no longer drained: the connection is dropped instead. */
const DRAIN_CAP = 8 * 1024 * 1024;

interface WorkerHandler {
  fetch(request: Request, env: Record<string, unknown>, context: unknown): Promise<Response>;
}

const refusal = (error: BodyTooLargeError | BodyTimeoutError) =>
  new Response(errorMessage(undefined, errorBody(error)), {
    status: error.httpStatus,
    headers: { "content-type": "application/json", connection: "close" },
  });

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, seen: number): Promise<void> {
  for (let drained = seen; drained <= DRAIN_CAP; ) {
    const next = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (next.done) return;
    drained += next.value.byteLength;
  }
  await reader.cancel().catch(() => {});
}

/** The request with its body read within the bounds, or the response that refuses it. */
async function boundedRequest(request: Request, env: Record<string, unknown>): Promise<Request | Response> {
  if (!request.body) return request;
  const { maxBodyBytes, bodyTimeoutMs } = SETTINGS;
  const limit = maxBodyBytes.parse(env[maxBodyBytes.env] ?? maxBodyBytes.default, maxBodyBytes.env);
  const timeoutMs = bodyTimeoutMs.parse(env[bodyTimeoutMs.env] ?? bodyTimeoutMs.default, bodyTimeoutMs.env);
  const reader = request.body.getReader();
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) {
    await drain(reader, declared > DRAIN_CAP ? Number.POSITIVE_INFINITY : 0);
    return refusal(new BodyTooLargeError(limit, true));
  }
  const deadline = Date.now() + timeoutMs;
  let buffer = new Uint8Array(0);
  let size = 0;
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">(
      (resolve) => (timer = setTimeout(() => resolve("timeout"), Math.max(0, deadline - Date.now()))),
    );
    const next = await Promise.race([reader.read(), timeout]);
    clearTimeout(timer);
    if (next === "timeout") {
      await reader.cancel().catch(() => {});
      return refusal(new BodyTimeoutError(timeoutMs));
    }
    if (next.done) break;
    size += next.value.byteLength;
    if (size > limit) {
      await drain(reader, size);
      return refusal(new BodyTooLargeError(limit, true));
    }
    if (size > buffer.byteLength) {
      const grown = new Uint8Array(Math.min(limit, Math.max(size, buffer.byteLength * 2, 16 * 1024)));
      grown.set(buffer.subarray(0, size - next.value.byteLength));
      buffer = grown;
    }
    buffer.set(next.value, size - next.value.byteLength);
  }
  const headers = new Headers(request.headers);
  headers.delete("transfer-encoding");
  headers.set("content-length", String(size));
  return new Request(request, { body: buffer.subarray(0, size), headers });
}

const nitro = nitroWorker as unknown as WorkerHandler;

export default {
  ...nitroWorker,
  async fetch(request: Request, env: Record<string, unknown>, context: unknown): Promise<Response> {
    const bounded = await boundedRequest(request, env);
    return bounded instanceof Response ? bounded : nitro.fetch(bounded, env, context);
  },
};

/**
 * Nitro's Durable Object, with the methods this build's stores give it (`#mcp-durable-methods`: the atomic table, the bus's
 * rendezvous, the rate counter), reached over RPC only.
 */
export class $DurableObject extends (NitroDurableObject as unknown as new (
  state: unknown,
  env: Record<string, unknown>,
) => object) {}

for (const methods of durableMethods) {
  Object.defineProperties($DurableObject.prototype, Object.getOwnPropertyDescriptors(methods));
}
