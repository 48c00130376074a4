/**
 * The benchmark scenarios: the same JSON-RPC requests for every contender (the three floors
 * ignore what is asked and answer their fixed result).
 *
 * Each scenario gives autocannon its `requests` (one step, or two for a full flow) and a
 * `call` used to measure latency one request at a time. `prepare` runs before each
 * measurement, untimed.
 */
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};
const CONFIRM_7 = { name: "bench_confirm", arguments: { item: "7" } };
const DECLINE = { confirm: { action: "decline" } };

const body = (method, params, id = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } });

function request(method, params) {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  if (method === "tools/call") headers["mcp-name"] = params.name;
  if (method === "resources/read") headers["mcp-name"] = params.uri;
  return { method: "POST", headers, body: body(method, params) };
}

/** A JSON-RPC answer, whether it came as JSON or as a one-message SSE stream (tmcp answers everything so). */
const parseAnswer = (text) =>
  JSON.parse(text.trimStart().startsWith("{") ? text : (/^data: ?(.*)$/m.exec(text)?.[1] ?? "null"));

async function send(url, method, params) {
  const { headers, body } = request(method, params);
  const response = await fetch(url, { method: "POST", headers, body });
  const json = parseAnswer(await response.text());
  if (!response.ok || json.error) throw new Error(`${method} failed: ${response.status} ${JSON.stringify(json.error)}`);
  return json.result;
}

/** Contenders that answer a constant, whatever is asked: they issue no state. */
const FIXED_ANSWER = new Set(["bare", "nitro-floor", "jsonrpc-floor"]);

/** Round one of bench_confirm: its sealed state. */
const askToConfirm = async (url, contender) =>
  FIXED_ANSWER.has(contender) ? "" : (await send(url, "tools/call", CONFIRM_7)).requestState;
const declineWith = (requestState) => ({ ...CONFIRM_7, inputResponses: DECLINE, requestState });

/**
 * A retry's body, its state spliced into text made once: the load generator shares the machine, so what it spends building a
 * body a request (a JSON.stringify of the whole message) would be taken from the server measured.
 */
const [RETRY_HEAD, RETRY_TAIL] = body("tools/call", declineWith("\u0000")).split(JSON.stringify("\u0000"));
const retryBody = (requestState) => RETRY_HEAD + JSON.stringify(requestState) + RETRY_TAIL;

const constant = (name, method, params) => ({
  name,
  requests: () => [request(method, params)],
  call: (url) => send(url, method, params),
});

/**
 * Round two alone, timed over the same duration as the other scenarios. The states are made
 * beforehand, untimed. This template's `bench_confirm` states are single use, so it gets one
 * fresh state per request (a replay would be refused, and counted as an error); the peers'
 * states can be replayed, so a smaller pool is cycled.
 */
function retryRound({ smoke, durationSeconds }) {
  let pool = [];
  // Single use: more states than the template can spend in the run, or replays count as errors. Autocannon runs about a
  // second past its duration: room for 40,000 rounds a second, about twice what the template does on a two-core machine.
  const poolSize = (contender) =>
    smoke ? 300 : contender === "template" ? 40_000 * (durationSeconds + 1) : FIXED_ANSWER.has(contender) ? 1 : 2_000;
  return {
    name: "MRTR retry round (confirm, decline)",
    async prepare(url, contender) {
      pool = [];
      for (let made = 0; made < poolSize(contender); made += 50) {
        pool.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(50, poolSize(contender) - made) }, () => askToConfirm(url, contender)),
          )),
        );
      }
    },
    requests() {
      let next = 0;
      return [
        {
          ...request("tools/call", CONFIRM_7),
          setupRequest: (req) => ({ ...req, body: retryBody(pool[next++ % pool.length]) }),
        },
      ];
    },
    call: async (url, contender) => send(url, "tools/call", declineWith(await askToConfirm(url, contender))),
  };
}

/** Both rounds on one connection: round one, then the retry with the state it returned. Reported per flow. */
const fullFlow = {
  name: "MRTR full flow (2 rounds, per flow)",
  requestsPerUnit: 2,
  requests: () => [
    {
      ...request("tools/call", CONFIRM_7),
      onResponse: (_status, text, context) => {
        context.state = parseAnswer(text).result?.requestState ?? "";
      },
    },
    {
      ...request("tools/call", CONFIRM_7),
      setupRequest: (req, context) => ({ ...req, body: retryBody(context.state) }),
    },
  ],
  call: async (url, contender) => send(url, "tools/call", declineWith(await askToConfirm(url, contender))),
};

/**
 * `requests` (autocannon's steps) counting every answer that carries a JSON-RPC error, which a 200 status would otherwise pass
 * for a fast success: `errors()` says how many there were.
 */
export function checkedRequests(requests) {
  let rpcErrors = 0;
  const checked = requests.map((step) => ({
    ...step,
    onResponse: (status, text, context) => {
      if (text.includes('"error"')) rpcErrors++;
      step.onResponse?.(status, text, context);
    },
  }));
  return { requests: checked, errors: () => rpcErrors };
}

/** The V8 flags of every server measured under load (run.mjs says why). */
export const PROCESS_FLAGS = ["--no-allocation-site-pretenuring"];

/** The JSON-RPC floor's route, beside the Nitro floor's /mcp in the same build. */
export const JSONRPC_FLOOR_PATH = "/jsonrpc";

export function scenarios({ smoke, durationSeconds }) {
  return [
    constant("tools/list", "tools/list", {}),
    constant("tools/call (text)", "tools/call", { name: "bench_greet", arguments: { name: "Ada" } }),
    retryRound({ smoke, durationSeconds }),
    fullFlow,
    constant("server/discover", "server/discover", {}),
  ];
}

/** The call the request log's and the rate limit's costs are measured on (the template alone, with and without each). */
export const costCall = constant("tools/call (text), variant", "tools/call", {
  name: "bench_greet",
  arguments: { name: "Ada" },
});

/** The request cold start waits for. */
export const firstCall = (url) => send(url, "tools/call", { name: "bench_greet", arguments: { name: "Ada" } });

/** The MIME type of an MCP Apps document (the ext-apps spec's). */
const APP_DOCUMENT = "text/html;profile=mcp-app";

/**
 * Every MCP Apps document a server lists, as a client reads it: `{ uri, text }`. A server that declares no resources
 * (a fork without the examples) has none.
 */
export async function appDocuments(url) {
  const documents = [];
  if (!(await send(url, "server/discover", {})).capabilities?.resources) return documents;
  let cursor;
  do {
    const page = await send(url, "resources/list", cursor ? { cursor } : {});
    for (const { uri, mimeType } of page.resources)
      if (mimeType === APP_DOCUMENT)
        documents.push({ uri, text: (await send(url, "resources/read", { uri })).contents[0].text });
    cursor = page.nextCursor;
  } while (cursor);
  return documents;
}
