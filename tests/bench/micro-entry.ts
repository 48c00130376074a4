/** Micro-benchmarks of the hot path, bundled by micro.mjs: the state codec, and per-request validation. */
import { createRequestStateCodec } from "@modelcontextprotocol/server";
import { checkMethodHeaders, checkVersionHeader } from "../../server/mcp/http/mcp-headers";
import { parseJsonRpcMessage, type JsonRpcRequest } from "../../server/mcp/jsonrpc";
import { parseRequestMeta } from "../../server/mcp/request-meta";
import { openRequestState, sealRequestState, type RequestBinding } from "../../server/mcp/state/codec";
import { createStateKeyRing } from "../../server/mcp/state/keys";

const SECRET = "bench-secret-0123456789abcdef0123456789";

/** Median µs per operation over `batches` batches of `size` operations. */
async function measure(size: number, batches: number, op: () => unknown): Promise<number> {
  const perOp: number[] = [];
  for (let batch = 0; batch < batches + 1; batch++) {
    const started = performance.now();
    for (let i = 0; i < size; i++) await op();
    if (batch > 0) perOp.push(((performance.now() - started) * 1000) / size); // batch 0 warms up
  }
  perOp.sort((a, b) => a - b);
  return perOp[Math.floor(perOp.length / 2)]!;
}

export async function runMicroBenchmarks(smoke: boolean): Promise<Record<string, number>> {
  const [size, batches] = smoke ? [50, 3] : [2000, 15];
  const ring = await createStateKeyRing({ secret: SECRET, previous: [], allowEphemeral: false });
  const binding: RequestBinding = { principal: "anonymous", method: "tools/call", target: "delete_note", arguments: { note_id: "7" } };
  const payload = { step: 2, name: "Ada" };
  const token = await sealRequestState(ring, binding, payload, { ttlSeconds: 600 });
  const sdk = createRequestStateCodec<typeof payload>({ key: SECRET, ttlSeconds: 600 });
  const sdkToken = await sdk.mint(payload);

  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: {
      name: "greet",
      arguments: { name: "Ada" },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
      },
    },
  });
  const headers: Record<string, string> = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "greet" };

  return {
    "seal requestState (this template: AES-256-GCM, request bound as AAD)": await measure(size, batches, () =>
      sealRequestState(ring, binding, payload, { ttlSeconds: 600 }),
    ),
    "open requestState (this template)": await measure(size, batches, () => openRequestState(ring, token, binding, { maxLength: 16384 })),
    "seal + open (this template)": await measure(size, batches, async () =>
      openRequestState(ring, await sealRequestState(ring, binding, payload, { ttlSeconds: 600 }), binding, { maxLength: 16384 }),
    ),
    "mint + verify (SDK codec: HMAC-SHA256, signed only)": await measure(size, batches, async () => sdk.verify(await sdk.mint(payload), {} as never)),
    "verify (SDK codec)": await measure(size, batches, () => sdk.verify(sdkToken, {} as never)),
    "validate one request: envelope + _meta + mirrored headers": await measure(size * 5, batches, () => {
      const message = parseJsonRpcMessage(body) as JsonRpcRequest;
      const meta = parseRequestMeta(message.params);
      const read = (name: string) => headers[name];
      checkVersionHeader(read, meta.protocolVersion);
      checkMethodHeaders(read, message);
    }),
  };
}
