/**
 * Sign-in end to end, parameterised by target (`sign-in-<target>.test.ts`):
 * the official client discovers everything from the first 401 and signs in on the development
 * authorization server, and every kind of bad token gets its answer; then that server behind a
 * proxy that makes its metadata, keys or introspection fail (tests/helpers/faulty-issuer.ts).
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeSigningKey, startAuthServer, TEST_CLIENTS } from "../../server/features/sign-in/dev/auth-server.mjs";
import {
  ELICITATION,
  askToIncrement,
  expectOpaqueRejection,
  readCounter,
  retryIncrement,
  uniqueKey,
} from "../helpers/flows";
import {
  INTROSPECTION_BODY_LIMIT,
  startFaultyIssuer,
  type Endpoint,
  type FaultyIssuer,
} from "../helpers/faulty-issuer";
import { badTokens, bearer, clientCredentialsToken, DevLoginProvider, revokeToken, signToken } from "../helpers/oauth";
import { meta, post, standardHeaders, type Json } from "../helpers/rpc";
import { createTask, taskRequest } from "../helpers/tasks";
import { freePort, type RunningServer } from "../helpers/server.mjs";
import { PACKAGE, hasFeature } from "../helpers/project.mjs";

type Start = (options: { port: number; env: Record<string, string> }) => Promise<RunningServer>;
type AuthServer = Awaited<ReturnType<typeof startAuthServer>>;

const SCOPES = ["fixtures:read", "fixtures:write"];

/** The environment that turns sign-in on for an MCP server at `resource`. */
const signInEnv = (issuer: string, resource: string, extra: Record<string, string> = {}) => ({
  NITRO_MCP_AUTH_ISSUER: issuer,
  NITRO_MCP_RESOURCE_URL: resource,
  NITRO_MCP_AUTH_SCOPES: "fixtures:read",
  NITRO_MCP_AUTH_CLIENT_ID: TEST_CLIENTS.resourceServer.id,
  NITRO_MCP_AUTH_CLIENT_SECRET: TEST_CLIENTS.resourceServer.secret,
  NITRO_MCP_AUTH_JWKS_COOLDOWN_SECONDS: "0",
  ...extra,
});

/** How long the server leaves a failing issuer alone (server/features/sign-in/issuer-fetch.ts). */
const BACKOFF_MS = 5000;

/** POSTs tools/list with one Authorization header per value: fetch would join them into one. */
function postWithAuthorizations(
  url: string,
  values: string[],
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta() } });
  // As a raw list, the only way to repeat a header; Node adds no Host to one.
  const headers = [
    "host",
    new URL(url).host,
    ...Object.entries(standardHeaders("tools/list")).flat(),
    ...values.flatMap((value) => ["authorization", value]),
  ];
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method: "POST", headers }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers }));
    });
    sent.on("error", reject);
    sent.end(body);
  });
}

/** The answer while the issuer cannot be asked: a 503 to retry, like the template's other 503s, never a verdict on the token. */
function expectIssuerUnavailable(result: { status: number; headers: Headers; body: Json }) {
  expect(result.status).toBe(503);
  expect(Number(result.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(Number(result.headers.get("retry-after"))).toBeLessThanOrEqual(BACKOFF_MS / 1000);
  expect(result.headers.get("www-authenticate")).toBeNull();
  expect(result.body).toEqual({
    jsonrpc: "2.0",
    error: { code: -32603, message: "Authorization server unavailable: try again shortly" },
  });
}

/** Fetches an endpoint may have made in `elapsedMs` while failing: one, then one more per back-off. */
const atMostOnePerBackoff = (elapsedMs: number) => 1 + Math.floor(elapsedMs / BACKOFF_MS);

/** Connects the official client (pinned to 2026-07-28) with an OAuth provider; undefined when it was sent to sign in first. */
async function connect(url: string, provider: DevLoginProvider) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  const client = new Client(
    { name: "sign-in-tests", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: ELICITATION },
  );
  try {
    await client.connect(transport);
    return { client, transport };
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
    return { transport };
  }
}

export function describeSignIn(name: string, start: Start) {
  describe(`sign-in, ${name}`, () => {
    let auth: AuthServer;
    let server: RunningServer;
    let resource: string;
    const token = (
      claims: Record<string, unknown> = {},
      header: Record<string, unknown> = {},
      key = auth.keys[0] as Record<string, unknown>,
    ) =>
      signToken(
        key,
        { iss: auth.issuer, aud: resource, sub: "alice", scope: SCOPES.join(" "), client_id: "c", ...claims },
        header,
      );

    beforeAll(async () => {
      const port = await freePort();
      resource = `http://127.0.0.1:${port}/mcp`;
      auth = await startAuthServer({ resource, scopes: SCOPES });
      server = await start({ port, env: signInEnv(auth.issuer, resource) });
    }, 90_000);
    afterAll(async () => {
      await server?.stop();
      await auth?.close();
    });

    it("serves its protected-resource metadata at the path-suffixed URL and at the root, readable from any origin", async () => {
      for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
        const response = await fetch(new URL(path, resource), { headers: { origin: "https://inspector.example" } });
        expect(response.status).toBe(200);
        expect(response.headers.get("access-control-allow-origin")).toBe("*");
        expect(response.headers.get("cache-control")).toMatch(/max-age=\d+/);
        expect(await response.json()).toEqual({
          resource,
          authorization_servers: [auth.issuer],
          scopes_supported: ["fixtures:read"],
          bearer_methods_supported: ["header"],
          resource_name: PACKAGE.name,
        });
      }
      const preflight = await fetch(new URL("/.well-known/oauth-protected-resource/mcp", resource), {
        method: "OPTIONS",
        headers: {
          origin: "https://inspector.example",
          "access-control-request-method": "GET",
          "access-control-request-headers": "mcp-protocol-version",
        },
      });
      expect(preflight.status).toBe(204);
    });

    it("the official client discovers, registers, signs in, steps up for a scope, and completes a multi-round flow", async () => {
      const provider = new DevLoginProvider("carol");
      const first = await connect(server.url, provider);
      expect(first.client).toBeUndefined(); // sent to sign in: 401 → metadata → authorization server → registration
      await first.transport.finishAuth(provider.callback!.searchParams);
      const { client, transport } = await connect(server.url, provider);
      expect(client).toBeDefined();
      client!.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { confirm: true } }));
      const key = uniqueKey();
      // Signed in with fixtures:read only: confirm_increment needs fixtures:write → 403 insufficient_scope → sign in again for more.
      const stepUp = await client!.callTool({ name: "confirm_increment", arguments: { key } }).catch((error) => error);
      expect(stepUp).toBeInstanceOf(UnauthorizedError);
      await transport.finishAuth(provider.callback!.searchParams);
      const result = await client!.callTool({ name: "confirm_increment", arguments: { key } });
      expect((result.content as { text: string }[])[0]!.text).toBe(`Counter ${key} is now 1.`);
      expect(await readCounter(server.url, key, bearer(provider.tokens()!.access_token))).toBe(1);
      await client!.close();
    });

    it("answers no token with 401 and a challenge naming the metadata and the scope, readable through CORS", async () => {
      const result = await post(server.url, "tools/list", {});
      expect(result.status).toBe(401);
      expect(result.headers.get("www-authenticate")).toBe(
        `Bearer resource_metadata="${new URL("/.well-known/oauth-protected-resource/mcp", resource)}", scope="fixtures:read"`,
      );
    });

    it.each(["Basic YTpi", "Bearer", "Bearer two words"])(
      "answers the malformed header %j with 400 invalid_request",
      async (authorization) => {
        const result = await post(server.url, "tools/list", {}, { headers: { authorization } });
        expect(result.status).toBe(400);
        expect(result.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_request"/);
      },
    );

    it("answers two Authorization headers with 400 invalid_request, even when each alone is valid", async () => {
      const valid = `Bearer ${await token()}`;
      for (const second of [valid, "Bearer another-token"]) {
        const result = await postWithAuthorizations(server.url, [valid, second]);
        expect(result.status).toBe(400);
        expect(result.headers["www-authenticate"]).toMatch(/^Bearer error="invalid_request"/);
      }
    });

    it.each(
      badTokens(
        () => ({ issuer: auth.issuer, resource, key: auth.keys[0] as Record<string, unknown> }),
        makeSigningKey,
      ),
    )("answers a token %s with 401 invalid_token", async (_, make) => {
      const result = await post(server.url, "tools/list", {}, bearer(await make()));
      expect(result.status).toBe(401);
      expect(result.headers.get("www-authenticate")).toMatch(
        /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="[^"]+", scope="fixtures:read"$/,
      );
    });

    it("picks up a rotation of the issuer's keys without a restart", async () => {
      await auth.rotateKeys();
      const result = await post(server.url, "tools/list", {}, bearer(await token()));
      expect(result.status).toBe(200);
    });

    it("answers a token without the scope a tool declares with 403 insufficient_scope, in both eras, and lists regardless", async () => {
      const readOnly = await token({ scope: "fixtures:read" });
      const modern = await post(
        server.url,
        "tools/call",
        { name: "confirm_increment", arguments: { key: uniqueKey() } },
        { capabilities: ELICITATION, ...bearer(readOnly) },
      );
      expect(modern.status).toBe(403);
      expect(modern.headers.get("www-authenticate")).toMatch(
        /^Bearer error="insufficient_scope", .*scope="fixtures:write"$/,
      );
      expect((await post(server.url, "tools/list", {}, bearer(await token({ scope: "" })))).status).toBe(200);
      if (!hasFeature("legacy")) return;
      const legacy = await fetch(server.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "mcp-protocol-version": "2025-11-25",
          authorization: `Bearer ${readOnly}`,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "confirm_increment", arguments: { key: "k" } },
        }),
      });
      expect(legacy.status).toBe(403);
      expect(legacy.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    });

    it("refuses a state sealed for one signed-in user when another presents it", async () => {
      const [alice, bob] = [await token({ sub: "alice" }), await token({ sub: "bob" })];
      const key = uniqueKey();
      const state = await askToIncrement(server.url, key, bearer(alice));
      expectOpaqueRejection(await retryIncrement(server.url, key, state, bearer(bob)));
      expect((await retryIncrement(server.url, key, state, bearer(alice))).body.result.content[0].text).toBe(
        `Counter ${key} is now 1.`,
      );
    });

    it("gives a token without sub a principal of its own kind: with client_id alice, it reaches neither alice's state nor her tasks", async () => {
      const [alice, client] = [await token({ sub: "alice" }), await token({ sub: undefined, client_id: "alice" })];
      const key = uniqueKey();
      const state = await askToIncrement(server.url, key, bearer(alice));
      expectOpaqueRejection(await retryIncrement(server.url, key, state, bearer(client)));
      if (hasFeature("tasks")) {
        const task = await createTask(
          server.url,
          "counted_job",
          { key: uniqueKey(), steps: 1, delay_ms: 0 },
          bearer(alice),
        );
        expect(
          (await taskRequest(server.url, "tasks/get", { taskId: task.taskId }, bearer(client))).body.error.code,
        ).toBe(-32602);
        expect(
          (await taskRequest(server.url, "tasks/get", { taskId: task.taskId }, bearer(alice))).body.result.taskId,
        ).toBe(task.taskId);
      }
      const nameless = await post(
        server.url,
        "tools/list",
        {},
        bearer(await token({ sub: undefined, client_id: undefined })),
      );
      expect(nameless.status).toBe(401);
    });

    it("accepts a client-credentials JWT, and an opaque token through introspection until it is revoked", async () => {
      const jwt = await clientCredentialsToken(auth.issuer, TEST_CLIENTS.m2m, SCOPES.join(" "), resource);
      expect((await post(server.url, "tools/list", {}, bearer(jwt))).status).toBe(200);
      const active = await clientCredentialsToken(auth.issuer, TEST_CLIENTS.m2mOpaque, SCOPES.join(" "), resource);
      expect(active.split(".")).toHaveLength(1);
      expect((await post(server.url, "tools/list", {}, bearer(active))).status).toBe(200);
      const revoked = await clientCredentialsToken(auth.issuer, TEST_CLIENTS.m2mOpaque, SCOPES.join(" "), resource);
      await revokeToken(auth.issuer, TEST_CLIENTS.m2mOpaque, revoked);
      const refused = await post(server.url, "tools/list", {}, bearer(revoked));
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
    });
  });

  describe(`sign-in with a failing authorization server, ${name}`, () => {
    let faulty: FaultyIssuer;
    let server: RunningServer;
    let resource: string;
    const list = (token: string) => post(server.url, "tools/list", {}, bearer(token));
    /** A JWT signed with a key the server has not seen yet: checking it needs the issuer's keys. */
    const tokenWithNewKey = async () =>
      signToken((await faulty.auth.rotateKeys()) as Record<string, unknown>, {
        iss: faulty.issuer,
        aud: resource,
        sub: "alice",
        scope: SCOPES.join(" "),
      });
    const opaqueToken = () => clientCredentialsToken(faulty.issuer, TEST_CLIENTS.m2mOpaque, SCOPES.join(" "), resource);
    /** Waits until `token` is accepted: the back-off is over and the issuer answered. */
    const acceptedSoon = (token: string) =>
      expect.poll(async () => (await list(token)).status, { timeout: 20_000, interval: 250 }).toBe(200);
    /** Sends `count` requests at once with `token` while `endpoint` fails; returns how many fetches it received. */
    async function burst(endpoint: Endpoint, token: string, count: number) {
      const before = faulty.fetches(endpoint);
      const started = Date.now();
      const results = await Promise.all(Array.from({ length: count }, () => list(token)));
      for (const result of results) expectIssuerUnavailable(result);
      return { fetches: faulty.fetches(endpoint) - before, elapsedMs: Date.now() - started };
    }

    beforeAll(async () => {
      const port = await freePort();
      resource = `http://127.0.0.1:${port}/mcp`;
      faulty = await startFaultyIssuer({ resource, scopes: SCOPES });
      server = await start({ port, env: signInEnv(faulty.issuer, resource) });
    }, 90_000);
    afterAll(async () => {
      await server?.stop();
      await faulty?.close();
    });
    // Whatever a test left behind, the next starts with an issuer that answers and no back-off running.
    beforeEach(async () => {
      faulty.recover();
      await acceptedSoon(await tokenWithNewKey());
      await acceptedSoon(await opaqueToken());
    }, 30_000);

    it.each(["500", "hang"] as const)(
      "keys answering %s: 503 with Retry-After (the token is not judged), one fetch for 50 requests, and the same token once they recover",
      async (fault) => {
        const token = await tokenWithNewKey();
        faulty.fail("keys", fault);
        const { fetches, elapsedMs } = await burst("keys", token, 50);
        expect(fetches).toBeGreaterThanOrEqual(1);
        expect(fetches).toBeLessThanOrEqual(atMostOnePerBackoff(elapsedMs));
        await expect
          .poll(() => server.logs())
          .toMatch(fault === "500" ? /503: \S+\/jwks: HTTP 500/ : /503: \S+\/jwks: no answer within 5 s/);
        expect(server.logs()).not.toContain(token);
        faulty.recover();
        await acceptedSoon(token);
      },
      60_000,
    );

    it.each(["null", "array", "string", "bad JSON", "huge", "deep", "500", "hang"] as const)(
      "introspection answering %s: 503 with Retry-After, no new introspection during the back-off, and the token once it recovers",
      async (fault) => {
        const token = await opaqueToken();
        faulty.fail("introspection", fault);
        const before = faulty.fetches("introspection");
        const started = Date.now();
        for (let attempt = 0; attempt < 3; attempt++) expectIssuerUnavailable(await list(token));
        const fetches = faulty.fetches("introspection") - before;
        expect(fetches).toBeGreaterThanOrEqual(1);
        expect(fetches).toBeLessThanOrEqual(atMostOnePerBackoff(Date.now() - started));
        expect(server.logs()).not.toContain(token);
        faulty.recover();
        await acceptedSoon(token);
      },
      60_000,
    );

    it("an opaque token whose introspection is refused as too large (413) is invalid_token for that request alone: the next token is accepted at once", async () => {
      const good = await opaqueToken();
      const oversized = "o".repeat(6 * 1024); // under this server's bound, over the stand-in's body limit
      expect(oversized.length).toBeGreaterThan(INTROSPECTION_BODY_LIMIT);
      const before = faulty.fetches("introspection");
      const refused = await list(oversized);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
      expect(faulty.fetches("introspection")).toBe(before + 1);
      expect((await list(good)).status).toBe(200);
    });

    it("a token longer than 8,192 characters is invalid_token at once: the authorization server is asked nothing", async () => {
      const endpoints: Endpoint[] = ["metadata", "keys", "introspection"];
      const before = endpoints.map((endpoint) => faulty.fetches(endpoint));
      const padded = await signToken((await makeSigningKey()) as Record<string, unknown>, {
        iss: faulty.issuer,
        aud: resource,
        sub: "alice",
        padding: "p".repeat(8192),
      });
      for (const tooLong of ["o".repeat(8193), padded]) {
        const refused = await list(tooLong);
        expect(refused.status).toBe(401);
        expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
      }
      expect(endpoints.map((endpoint) => faulty.fetches(endpoint))).toEqual(before);
    });

    it("introspection refusing this server's credentials (401): 503 for that request, the reason in the log, nobody else held back", async () => {
      faulty.fail("introspection", "401");
      const refused = await list(await opaqueToken());
      expect(refused.status).toBe(503);
      expect(refused.headers.get("www-authenticate")).toBeNull();
      faulty.recover();
      expect((await list(await opaqueToken())).status).toBe(200);
      await expect
        .poll(() => server.logs())
        .toMatch(/client credentials.*check NITRO_MCP_AUTH_CLIENT_ID and NITRO_MCP_AUTH_CLIENT_SECRET/);
    });

    it("metadata answering 500 from the start: 503 for every token, at most one fetch per well-known URL, then sign-in works", async () => {
      const port = await freePort();
      const ownResource = `http://127.0.0.1:${port}/mcp`;
      const issuer = await startFaultyIssuer({ resource: ownResource, scopes: SCOPES });
      issuer.fail("metadata", "500");
      const own = await start({ port, env: signInEnv(issuer.issuer, ownResource) });
      try {
        const jwt = await signToken(issuer.auth.keys[0] as Record<string, unknown>, {
          iss: issuer.issuer,
          aud: ownResource,
          sub: "alice",
        });
        const opaque = await clientCredentialsToken(
          issuer.issuer,
          TEST_CLIENTS.m2mOpaque,
          SCOPES.join(" "),
          ownResource,
        );
        const started = Date.now();
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, index) => post(own.url, "tools/list", {}, bearer(index % 2 ? jwt : opaque))),
        );
        for (const result of results) expectIssuerUnavailable(result);
        expect(issuer.fetches("metadata")).toBeGreaterThanOrEqual(1);
        expect(issuer.fetches("metadata")).toBeLessThanOrEqual(2 * atMostOnePerBackoff(Date.now() - started)); // RFC 8414's URL, then OpenID's
        await expect.poll(() => own.logs()).toMatch(/503: no metadata for the issuer \(\S+: HTTP 500/);
        issuer.recover();
        for (const token of [jwt, opaque]) {
          await expect
            .poll(async () => (await post(own.url, "tools/list", {}, bearer(token))).status, {
              timeout: 20_000,
              interval: 250,
            })
            .toBe(200);
        }
      } finally {
        await own.stop();
        await issuer.close();
      }
    }, 90_000);
  });

  describe(`sign-in failing closed, ${name}`, () => {
    it("answers 503, never 200 and never a stack, when the authorization server cannot be reached", async () => {
      const unreachable = `http://127.0.0.1:${await freePort()}`;
      const port = await freePort();
      const resource = `http://127.0.0.1:${port}/mcp`;
      const server = await start({ port, env: signInEnv(unreachable, resource) });
      const key = (await generateKeyPair("ES256", { extractable: true })).privateKey;
      const jwt = await signToken(
        { ...(await exportJWK(key)), alg: "ES256", kid: "k" },
        { iss: unreachable, aud: resource, sub: "alice" },
      );
      const result = await post(server.url, "tools/list", {}, bearer(jwt));
      expect(result.status).toBe(503);
      expect(result.headers.get("retry-after")).toBe("5");
      expect(await post(server.url, "tools/list", {}, bearer("opaque"))).toMatchObject({ status: 503 });
      await expect.poll(() => server.logs()).toMatch(/503: .*no metadata for the issuer/);
      await server.stop();
    }, 60_000);
  });
}
