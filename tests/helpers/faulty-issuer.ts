/**
 * The development authorization server behind a switchboard of faults: a proxy that is the issuer
 * (its metadata and tokens name the proxy), passes everything through to the real server, and can
 * make its metadata, its keys or its introspection fail: answer 500, hang, or answer 200 with
 * something that is not a usable JSON object (not an object, too large, nested too deep), or refuse
 * with a 4xx (the request, the credentials, the URL, the rate). Like a real server, it answers 413 to an
 * introspection whose body is over INTROSPECTION_BODY_LIMIT. It counts what each endpoint was asked.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { startAuthServer } from "../../server/features/sign-in/dev/auth-server.mjs";

export type Endpoint = "metadata" | "keys" | "introspection";
export type Fault = "none" | "500" | "hang" | "null" | "array" | "string" | "bad JSON" | "huge" | "deep" | Refusal;
export type Refusal = keyof typeof REFUSALS;

/** A request body larger than this is refused 413, as a server with a small body limit does. */
export const INTROSPECTION_BODY_LIMIT = 4096;
/** How long a "429" asks the server to wait, in seconds. */
export const RETRY_AFTER_SECONDS = 2;

const json = { "content-type": "application/json" };
const REFUSALS = {
  "400": { status: 400, headers: json, body: '{"error":"invalid_request"}' },
  "400 invalid_client": { status: 400, headers: json, body: '{"error":"invalid_client"}' },
  "401": {
    status: 401,
    headers: { ...json, "www-authenticate": 'Basic realm="introspection"' },
    body: '{"error":"invalid_client"}',
  },
  "403": { status: 403, headers: { "content-type": "text/html" }, body: "<h1>Forbidden</h1>" },
  "404": { status: 404, headers: { "content-type": "text/plain" }, body: "Not Found" },
  "409": { status: 409, headers: { "content-type": "text/plain" }, body: "Conflict" },
  "429": { status: 429, headers: { "retry-after": String(RETRY_AFTER_SECONDS) }, body: "" },
  "429 for a day": { status: 429, headers: { "retry-after": "86400" }, body: "" },
} as const;

const BODIES: Partial<Record<Fault, string>> = {
  null: "null",
  array: "[]",
  string: '"active"',
  "bad JSON": '{"active": tru',
  // An object a megabyte long, and one nested 10,000 deep: both valid JSON.
  huge: `{"active":true,"padding":"${"x".repeat(1024 * 1024)}"}`,
  deep: `{"active":true,"x":${"[".repeat(10_000)}${"]".repeat(10_000)}}`,
};

function endpointOf(path: string): Endpoint | undefined {
  if (path.startsWith("/.well-known/")) return "metadata";
  if (path === "/jwks") return "keys";
  if (path === "/token/introspection") return "introspection";
  return undefined;
}

export async function startFaultyIssuer(options: { resource: string; scopes: string[] }) {
  const faults: Record<Endpoint, Fault> = { metadata: "none", keys: "none", introspection: "none" };
  const counts: Record<Endpoint, number> = { metadata: 0, keys: 0, introspection: 0 };
  let upstream = "";

  function answer(req: IncomingMessage, res: ServerResponse) {
    const endpoint = endpointOf(req.url!.split("?")[0]!);
    if (endpoint) counts[endpoint]++;
    const fault = endpoint ? faults[endpoint] : "none";
    if (fault === "hang") return;
    if (fault === "500") return res.writeHead(500, { "content-type": "text/plain" }).end("down");
    if (fault in REFUSALS) {
      const { status, headers, body } = REFUSALS[fault as Refusal];
      return res.writeHead(status, headers).end(body);
    }
    if (endpoint === "introspection" && Number(req.headers["content-length"]) > INTROSPECTION_BODY_LIMIT) {
      req.resume();
      return res.writeHead(413, { "content-type": "text/plain" }).end("Request Entity Too Large");
    }
    if (fault !== "none") return res.writeHead(200, { "content-type": "application/json" }).end(BODIES[fault]);
    const target = new URL(req.url!, upstream);
    const forwarded = request(target, { method: req.method, headers: req.headers }, (from) => {
      res.writeHead(from.statusCode!, from.headers);
      from.pipe(res);
    });
    forwarded.on("error", () => res.destroy());
    req.pipe(forwarded);
  }

  const proxy = createServer(answer);
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const auth = await startAuthServer({ issuer, resource: options.resource, scopes: options.scopes });
  upstream = auth.address;
  return {
    issuer,
    /** The real server behind it: its `keys` sign tokens, `rotateKeys` publishes a new one. */
    auth,
    fail(endpoint: Endpoint, fault: Fault) {
      faults[endpoint] = fault;
    },
    recover() {
      for (const endpoint of Object.keys(faults) as Endpoint[]) faults[endpoint] = "none";
    },
    /** How many requests each endpoint received so far. */
    fetches: (endpoint: Endpoint) => counts[endpoint],
    async close() {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await auth.close();
    },
  };
}

export type FaultyIssuer = Awaited<ReturnType<typeof startFaultyIssuer>>;
