/** Micro-benchmarks of the hot path, bundled by micro.mjs: the state codec, and per-request validation. */
import { createRequestStateCodec } from "@modelcontextprotocol/server";
import { checkMethodHeaders, checkVersionHeader } from "../../server/mcp/protocol";
import { parseJsonRpcMessage, parseRequestMeta, type JsonRpcRequest } from "../../server/mcp/protocol";
import type { StateCipher } from "../../server/mcp/state/cipher";
import { stateCipher as nodeCipher } from "../../server/mcp/platform/node";
import { stateCipher as webCipher } from "../../server/cloudflare/platform";
import { openClaims, sealClaims, type RequestBinding } from "../../server/mcp/state/codec";
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
  const binding: RequestBinding = {
    principal: "anonymous",
    method: "tools/call",
    target: "delete_note",
    arguments: { note_id: "7" },
  };
  const payload = { step: 2, name: "Ada" };
  /** Seal, open, and both, with one cipher backend. */
  const codec = async (label: string, cipher: StateCipher) => {
    const ring = await createStateKeyRing({ cipher, secret: SECRET, previous: [], allowEphemeral: false });
    const token = await sealClaims(ring, binding, payload, { ttlSeconds: 600 });
    return {
      [`seal requestState (${label})`]: await measure(size, batches, () =>
        sealClaims(ring, binding, payload, { ttlSeconds: 600 }),
      ),
      [`open requestState (${label})`]: await measure(size, batches, () =>
        openClaims(ring, token, binding, { maxLength: 16384 }),
      ),
      [`seal + open (${label})`]: await measure(size, batches, async () =>
        openClaims(ring, await sealClaims(ring, binding, payload, { ttlSeconds: 600 }), binding, {
          maxLength: 16384,
        }),
      ),
    };
  };
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
  const headers: Record<string, string> = {
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "greet",
  };

  return {
    ...(await codec("this template, node:crypto: the Node and Vercel builds", nodeCipher)),
    // with:cloudflare
    ...(await codec("this template, Web Crypto: the Worker build", webCipher)),
    // end with:cloudflare
    "mint + verify (SDK codec: HMAC-SHA256, signed only)": await measure(size, batches, async () =>
      sdk.verify(await sdk.mint(payload), {} as never),
    ),
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
