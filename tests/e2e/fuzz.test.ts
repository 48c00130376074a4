/**
 * Property-based fuzzing of the real node build over HTTP, with fast-check: envelopes, `_meta`,
 * the mirrored headers (and their base64 form), arguments for every tool the server lists (made
 * from its JSON Schema, plus noise), `inputResponses` and `requestState` (random, and real states
 * mutated). Whatever comes in: never a 5xx, always a JSON-RPC response with a spec code or a valid
 * result, the server answers afterwards, and nothing a valid flow did not ask for changes.
 *
 * Seeded: FUZZ_SEED=<n> replays a run; a failure prints its seed and the shrunk request.
 */
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ELICITATION, askToIncrement, readCounter, retryIncrement, uniqueKey } from "../helpers/flows";
import { meta, post, standardHeaders, type Json } from "../helpers/rpc";
import { startServer, type RunningServer } from "../helpers/server.mjs";

const RUNS = Number(process.env.FUZZ_RUNS ?? 2500);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);
/** The spec's codes, and 429: the rate-limit refusal of this server (HTTP 429; the fixtures' `limited_echo` allows 3 calls an hour). */
const SPEC_CODES = new Set([-32700, -32600, -32601, -32602, -32603, -32020, -32021, -32022, -32002, -32042, 429]);

let server: RunningServer;
let tools: Json[] = [];
let prompts: Json[] = [];
let resourceUris: string[] = [];
/** Real states from round one, to be mutated (a valid one is never sent unmutated to a single-use tool). */
let realStates: string[] = [];
const watched = uniqueKey();

beforeAll(async () => {
  server = await startServer();
  tools = (await post(server.url, "tools/list", {})).body.result.tools;
  prompts = (await post(server.url, "prompts/list", {})).body.result.prompts;
  resourceUris = (await post(server.url, "resources/list", {})).body.result.resources.map(
    (resource: Json) => resource.uri,
  );
  await retryIncrement(server.url, watched, await askToIncrement(server.url, watched));
  realStates = await Promise.all(Array.from({ length: 5 }, () => askToIncrement(server.url, watched)));
});
afterAll(() => server.stop());

/** Values for a JSON Schema (the subset tools use), kept small so no call runs long; sometimes anything at all. */
function fromSchema(schema: Json | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 3) return fc.jsonValue({ maxDepth: 2 });
  const noise = fc.jsonValue({ maxDepth: 2 });
  const typed = (() => {
    if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
    switch (schema.type) {
      case "string":
        return fc.oneof(fc.string({ maxLength: 20 }), fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/));
      case "integer": {
        const min = Number.isFinite(schema.minimum) ? schema.minimum : -5;
        return fc.integer({ min, max: min + 20 });
      }
      case "number":
        return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(1e308, -1e308, 0));
      case "boolean":
        return fc.boolean();
      case "array":
        return fc.array(fromSchema(schema.items, depth + 1), { maxLength: 3 });
      case "object": {
        const properties = Object.entries((schema.properties ?? {}) as Record<string, Json>);
        return fc.record(
          Object.fromEntries(properties.map(([name, property]) => [name, fromSchema(property, depth + 1)])),
          { requiredKeys: [] },
        );
      }
      default:
        return noise;
    }
  })();
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: noise });
}

const text = fc.string({ maxLength: 30 });
const answer = fc.oneof(
  fc.record({
    action: fc.constantFrom("accept", "decline", "cancel"),
    content: fc.option(fc.dictionary(text, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })),
  }),
  fc.jsonValue({ maxDepth: 2 }),
);
const inputResponses = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.dictionary(fc.constantFrom("confirm", "word", "color", "size", "brief", "format", "x"), answer, {
      maxKeys: 3,
    }),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);
const mutated = (state: string) =>
  fc.oneof(
    fc.nat(state.length - 1).map((at) => state.slice(0, at) + (state[at] === "A" ? "B" : "A") + state.slice(at + 1)),
    fc.nat(state.length).map((at) => state.slice(0, at)),
    text.map((suffix) => `${state}${suffix || "x"}`),
  );
const requestState = fc.oneof(
  fc.constantFrom(...[0, 1, 2, 3, 4]).chain((index) => mutated(realStates[index]!)),
  text,
  fc.jsonValue({ maxDepth: 2 }),
);

/** The params of one request to `method`, aimed at what the server really has most of the time. */
function paramsFor(method: string): fc.Arbitrary<Json> {
  const continuation = fc.oneof(
    { weight: 3, arbitrary: fc.constant({}) },
    { weight: 2, arbitrary: fc.record({ inputResponses }) },
    { weight: 2, arbitrary: fc.record({ inputResponses, requestState }, { requiredKeys: [] }) },
  );
  switch (method) {
    case "tools/call":
      return fc
        .oneof(
          ...tools.map((tool) =>
            fc.record(
              { name: fc.constant(tool.name), arguments: fromSchema(tool.inputSchema) },
              { requiredKeys: ["name"] },
            ),
          ),
          fc.record({ name: text, arguments: fc.jsonValue() }, { requiredKeys: [] }),
        )
        .chain((call) => continuation.map((more) => ({ ...call, ...more })));
    case "prompts/get":
      return fc
        .oneof(
          ...prompts.map((prompt) =>
            fc.record(
              {
                name: fc.constant(prompt.name),
                arguments: fc.dictionary(text, fc.oneof(text, fc.jsonValue({ maxDepth: 1 })), { maxKeys: 3 }),
              },
              { requiredKeys: ["name"] },
            ),
          ),
          fc.record({ name: fc.jsonValue({ maxDepth: 1 }) }),
        )
        .chain((call) => continuation.map((more) => ({ ...call, ...more })));
    case "resources/read":
      return fc
        .record({ uri: fc.oneof(fc.constantFrom(...resourceUris), text, fc.jsonValue({ maxDepth: 1 })) })
        .chain((call) => continuation.map((more) => ({ ...call, ...more })));
    case "completion/complete":
      return fc.record({
        ref: fc.oneof(
          fc.record({
            type: fc.constant("ref/prompt"),
            name: fc.constantFrom(...prompts.map((prompt) => prompt.name)),
          }),
          fc.jsonValue({ maxDepth: 2 }),
        ),
        argument: fc.oneof(fc.record({ name: text, value: text }), fc.jsonValue({ maxDepth: 1 })),
      });
    default:
      return fc.oneof(
        fc.constant({}),
        fc.record({ cursor: fc.oneof(text, fc.jsonValue({ maxDepth: 1 })) }),
        fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
      );
  }
}

const METHODS = [
  ...Array(6).fill("tools/call"),
  ...Array(2).fill("prompts/get"),
  ...Array(2).fill("resources/read"),
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "completion/complete",
  "subscriptions/listen",
  "initialize",
  "ping",
  "logging/setLevel",
  "nope/nope",
];
const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,30}$/);

/** Mostly what a client would send, sometimes anything: `weight` to 1. */
const mostly = <T>(weight: number, usual: fc.Arbitrary<T>, unusual: fc.Arbitrary<T>) =>
  fc.oneof({ weight, arbitrary: usual }, { weight: 1, arbitrary: unusual });

const capabilities = mostly(
  8,
  fc.constantFrom<Json>(ELICITATION, {}, { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} }),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);
const metaExtras = fc.record(
  {
    progressToken: mostly(8, fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), fc.jsonValue({ maxDepth: 1 })),
    "io.modelcontextprotocol/logLevel": mostly(
      8,
      fc.constantFrom("debug", "info", "error"),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    "io.modelcontextprotocol/protocolVersion": mostly(
      6,
      fc.constant("2026-07-28"),
      fc.oneof(text, fc.constantFrom("2025-11-25", "v999")),
    ),
    "io.modelcontextprotocol/clientInfo": mostly(
      4,
      fc.record({ name: text, version: text }),
      fc.jsonValue({ maxDepth: 1 }),
    ),
  },
  { requiredKeys: [] },
);
/** A `_meta` that is valid most of the time, and broken in one way or another otherwise. */
const metaArbitrary = mostly(
  10,
  fc.tuple(capabilities, mostly(3, fc.constant({}), metaExtras)).map(([declared, extra]) => meta(declared, extra)),
  fc.oneof(fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>, fc.constant(undefined)),
);

/** The mirrored headers of the request, then mangled: a header dropped, a value replaced, a value base64-encoded, a parameter header added. */
function headersFor(method: string, params: Json): fc.Arbitrary<Record<string, string>> {
  const base = standardHeaders(method, typeof params.name === "string" || typeof params.uri === "string" ? params : {});
  // Content-Type and Accept are dropped or replaced rarely: the interesting headers are MCP's.
  const names = mostly(
    6,
    fc.constantFrom(...Object.keys(base).filter((name) => name.startsWith("mcp-"))),
    fc.constantFrom(...Object.keys(base)),
  );
  const change = fc.oneof(
    fc.constant((headers: Record<string, string>) => headers),
    names.map(
      (name) => (headers: Record<string, string>) =>
        Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name)),
    ),
    fc.tuple(names, headerValue).map(([name, value]) => (headers: Record<string, string>) => ({
      ...headers,
      [name]: value,
    })),
    fc.constant((headers: Record<string, string>) =>
      headers["mcp-name"]
        ? { ...headers, "mcp-name": `=?base64?${Buffer.from(headers["mcp-name"]).toString("base64")}?=` }
        : headers,
    ),
    fc
      .tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,10}$/), headerValue)
      .map(([name, value]) => (headers: Record<string, string>) => ({ ...headers, [`mcp-param-${name}`]: value })),
  );
  type Change = (headers: Record<string, string>) => Record<string, string>;
  return mostly<Change[]>(3, fc.constant([]), fc.array(change, { minLength: 1, maxLength: 3 })).map((changes) =>
    changes.reduce((headers, apply) => apply(headers), base),
  );
}

const requestArbitrary = fc
  .record({
    method: mostly(12, fc.constantFrom(...METHODS), text),
    id: mostly(
      12,
      fc.oneof(fc.integer(), fc.string({ maxLength: 8 })),
      fc.oneof(fc.constant(null), fc.double(), fc.jsonValue({ maxDepth: 1 })),
    ),
    notification: mostly(15, fc.constant(false), fc.constant(true)),
  })
  .chain(({ method, id, notification }) =>
    fc.record({
      method: fc.constant(method),
      id: fc.constant(id),
      notification: fc.constant(notification),
      params: paramsFor(method),
      meta: metaArbitrary,
    }),
  )
  .chain((request) => headersFor(request.method, request.params).map((headers) => ({ ...request, headers })));

function checkResponse(status: number, contentType: string, text: string, notification: boolean): void {
  expect(status, text).toBeLessThan(500);
  if (status === 202) {
    expect(notification).toBe(true);
    expect(text).toBe("");
    return;
  }
  const messages = contentType.startsWith("text/event-stream")
    ? text
        .split("\n\n")
        .filter(Boolean)
        .map((frame) =>
          JSON.parse(
            frame
              .split("\n")
              .find((line) => line.startsWith("data: "))!
              .slice(6),
          ),
        )
    : [JSON.parse(text)];
  const final = messages.at(-1);
  expect(final.jsonrpc).toBe("2.0");
  expect("result" in final !== "error" in final, text).toBe(true);
  if (final.error) {
    expect(SPEC_CODES.has(final.error.code), text).toBe(true);
    expect(typeof final.error.message).toBe("string");
  } else {
    expect(typeof final.result).toBe("object");
    if (final.result.resultType !== undefined)
      expect(["complete", "input_required"]).toContain(final.result.resultType);
  }
}

it(`answers ${RUNS} generated requests with spec-shaped responses, never a 5xx (seed ${SEED})`, async () => {
  await fc.assert(
    fc.asyncProperty(requestArbitrary, async ({ method, id, notification, params, meta: requestMeta, headers }) => {
      const body: Json = {
        jsonrpc: "2.0",
        method,
        params: requestMeta === undefined ? params : { ...params, _meta: requestMeta },
      };
      if (!notification) body.id = id;
      const response = await fetch(server.url, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      checkResponse(response.status, response.headers.get("content-type") ?? "", await response.text(), notification);
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  // Still answering, and nothing changed that no valid flow asked for.
  expect((await post(server.url, "server/discover", {})).status).toBe(200);
  expect(await readCounter(server.url, watched)).toBe(1);
}, 300_000);
