/**
 * Sign-in's rules in-process: the challenges, every kind of bad token, scopes per definition in both eras,
 * principals from `sub` and `client_id`, the key fetches an unknown key id may cause. The authorization server
 * is a stand-in answering the server's `fetch` of its metadata and keys (no network). Then introspection
 * refused by a real authorization server over HTTP (tests/helpers/faulty-issuer.ts): what each refusal means, for
 * the request and for everyone else, and the bound on a token's length. The official client signing in on a real
 * authorization server, and an issuer that fails, on each target: tests/targets/sign-in.ts.
 */
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { makeSigningKey, TEST_CLIENTS } from "../../../server/features/sign-in/dev/auth-server.mjs";
import {
  INTROSPECTION_BODY_LIMIT,
  RETRY_AFTER_SECONDS,
  startFaultyIssuer,
  type Endpoint,
  type FaultyIssuer,
  type Refusal,
} from "../../helpers/faulty-issuer";
import { createTestServer, type TestClient, type TestServer } from "../../helpers/in-process";
import { badTokens, bearer, clientCredentialsToken, signToken } from "../../helpers/oauth";
import { ELICITATION, FIXTURES, askToIncrement, expectOpaqueRejection, retryIncrement, uniqueKey } from "./flows";
import { PACKAGE, hasFeature } from "../../helpers/project.mjs";
import { openListen } from "../../helpers/rpc";

const ISSUER = "https://issuer.test";
const RESOURCE = "http://localhost/mcp";
const SCOPES = "fixtures:read fixtures:write";

const signingKey = async (kid: string): Promise<JWK> => {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: "ES256", use: "sig" };
};
const publicPart = ({ d: _private, ...rest }: JWK): JWK => rest;

let key: JWK;
let server: TestServer;
let client: TestClient;
/** How many times the stand-in was asked for its keys. */
let keyFetches = 0;
const token = (claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}, with_ = key) =>
  signToken(
    with_ as Record<string, unknown>,
    { iss: ISSUER, aud: RESOURCE, sub: "alice", scope: SCOPES, client_id: "c", ...claims },
    header,
  );

beforeAll(async () => {
  key = await signingKey("k1");
  const network = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    // The real authorization servers of the introspection tests are on the network.
    if (!url.startsWith(ISSUER)) return network(input, init);
    if (url === `${ISSUER}/.well-known/oauth-authorization-server`)
      return Response.json({ issuer: ISSUER, jwks_uri: `${ISSUER}/jwks` });
    if (url === `${ISSUER}/jwks`) {
      keyFetches++;
      return Response.json({ keys: [publicPart(key)] });
    }
    return new Response("not found", { status: 404 });
  });
  server = await createTestServer({
    ...FIXTURES,
    env: { NITRO_MCP_AUTH_ISSUER: ISSUER, NITRO_MCP_RESOURCE_URL: RESOURCE, NITRO_MCP_AUTH_SCOPES: "fixtures:read" },
  });
  client = server.connect({ capabilities: ELICITATION });
});
afterAll(() => {
  vi.unstubAllGlobals();
});

describe("challenges and metadata", () => {
  it("serves its protected-resource metadata at the path-suffixed URL and at the root, readable from any origin", async () => {
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const response = await server.fetch(
        new Request(`http://localhost${path}`, { headers: { origin: "https://inspector.example" } }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(await response.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: [ISSUER],
        scopes_supported: ["fixtures:read"],
        bearer_methods_supported: ["header"],
        resource_name: PACKAGE.name,
      });
    }
  });

  it("answers no token with 401 and a challenge naming the metadata and the scope", async () => {
    const result = await client.request("tools/list");
    expect(result.status).toBe(401);
    expect(result.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp", scope="fixtures:read"`,
    );
  });

  it.each(["Basic YTpi", "Bearer", "Bearer two words", "Bearer a, Bearer b"])(
    "answers the malformed header %j with 400 invalid_request",
    async (authorization) => {
      const result = await client.request("tools/list", {}, { headers: { authorization } });
      expect(result.status).toBe(400);
      expect(result.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_request"/);
    },
  );

  it("accepts a valid token", async () => {
    expect((await client.request("tools/list", {}, bearer(await token()))).status).toBe(200);
  });
});

describe("bad tokens", () => {
  it.each(
    badTokens(
      () => ({ issuer: ISSUER, resource: RESOURCE, key: key as Record<string, unknown> }),
      () => signingKey("k1") as Promise<Record<string, unknown>>,
    ),
  )("answers a token %s with 401 invalid_token", async (_, make) => {
    const result = await client.request("tools/list", {}, bearer(await make()));
    expect(result.status).toBe(401);
    expect(result.headers.get("www-authenticate")).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="[^"]+", scope="fixtures:read"$/,
    );
  });
});

describe("scopes", () => {
  it("answers a token without the scope a tool declares with 403 insufficient_scope naming it, and does not ask", async () => {
    const result = await client.request(
      "tools/call",
      { name: "confirm_increment", arguments: { key: uniqueKey() } },
      bearer(await token({ scope: "fixtures:read" })),
    );
    expect(result.status).toBe(403);
    expect(result.headers.get("www-authenticate")).toMatch(
      /^Bearer error="insufficient_scope", .*scope="fixtures:write"$/,
    );
  });

  it.runIf(hasFeature("legacy"))("answers the same to a 2025-era client", async () => {
    const legacy = server.connect({ era: "2025-11-25", ...bearer(await token({ scope: "fixtures:read" })) });
    const result = await legacy.request("tools/call", { name: "confirm_increment", arguments: { key: uniqueKey() } });
    expect(result.status).toBe(403);
    expect(result.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
  });

  it("lets a broader scope cover a narrower one", async () => {
    const state = await askToIncrement(client, uniqueKey(), bearer(await token({ scope: "fixtures" })));
    expect(state).toMatch(/^v1\./);
  });

  it.runIf(hasFeature("message-bus"))(
    "leaves out of a subscriptions/listen acknowledgement the resources the token may not read",
    async () => {
      const scoped = await createTestServer({
        definitions: ["tests/fixtures/scoped/scoped-resource.ts", "tests/fixtures/resources/fixture-items.ts"],
        env: {
          NITRO_MCP_AUTH_ISSUER: ISSUER,
          NITRO_MCP_RESOURCE_URL: RESOURCE,
          NITRO_MCP_AUTH_SCOPES: "fixtures:read",
        },
      });
      const listen = async (scope: string) => {
        const opened = await openListen(
          (request) => scoped.stream(request),
          RESOURCE,
          { resourceSubscriptions: ["fixture://scoped", "fixture://items/1"] },
          bearer(await token({ scope })).headers,
        );
        await opened.stream.close();
        return opened.first?.params.notifications;
      };
      expect(await listen("fixtures:read")).toEqual({ resourceSubscriptions: ["fixture://items/1"] });
      expect(await listen("fixtures:read fixtures:write")).toEqual({
        resourceSubscriptions: ["fixture://scoped", "fixture://items/1"],
      });
    },
  );

  it("never restricts lists", async () => {
    expect((await client.request("tools/list", {}, bearer(await token({ scope: "" })))).status).toBe(200);
  });
});

describe("principals", () => {
  it("refuses a state sealed for one signed-in user when another presents it", async () => {
    const [alice, bob] = [await token({ sub: "alice" }), await token({ sub: "bob" })];
    const key = uniqueKey();
    const state = await askToIncrement(client, key, bearer(alice));
    expectOpaqueRejection(await retryIncrement(client, key, state, bearer(bob)));
    expect((await retryIncrement(client, key, state, bearer(alice))).body.result.content[0].text).toBe(
      `Counter ${key} is now 1.`,
    );
  });

  it("gives a token without sub a principal of its own kind: with client_id alice, it does not reach alice's state", async () => {
    const [alice, app] = [await token({ sub: "alice" }), await token({ sub: undefined, client_id: "alice" })];
    const key = uniqueKey();
    expectOpaqueRejection(
      await retryIncrement(client, key, await askToIncrement(client, key, bearer(alice)), bearer(app)),
    );
    expect(
      (await client.request("tools/list", {}, bearer(await token({ sub: undefined, client_id: undefined })))).status,
    ).toBe(401);
  });
});

describe("a client acting for itself", () => {
  it("is its client whether its token has sub equal to client_id (RFC 9068) or no sub, and no user named like it reaches its state", async () => {
    const machine = await token({ sub: "m2m", client_id: "m2m" });
    const [sameClient, userNamedLikeIt] = [
      await token({ sub: undefined, client_id: "m2m" }),
      await token({ sub: "m2m", client_id: "inspector" }),
    ];
    const key = uniqueKey();
    const state = await askToIncrement(client, key, bearer(machine));
    expectOpaqueRejection(await retryIncrement(client, key, state, bearer(userNamedLikeIt)));
    expect((await retryIncrement(client, key, state, bearer(sameClient))).body.result.content[0].text).toBe(
      `Counter ${key} is now 1.`,
    );
  });
});

describe("key fetches", () => {
  it("fetches the keys again for an unknown key id at most once per cooldown, however many tokens name one", async () => {
    expect((await client.request("tools/list", {}, bearer(await token()))).status).toBe(200);
    const before = keyFetches;
    // One after another: concurrent ones would share one fetch anyway, cooldown or not.
    for (let index = 0; index < 10; index++) {
      const unknown = await token({}, {}, await signingKey(`unknown-${index}`));
      expect((await client.request("tools/list", {}, bearer(unknown))).status).toBe(401);
    }
    // NITRO_MCP_AUTH_JWKS_COOLDOWN_SECONDS is 30 here: one refetch if the last was longer ago, else none.
    expect(keyFetches - before).toBeLessThanOrEqual(1);
  });
});

describe("introspection refused by the authorization server", () => {
  const SCOPE_LIST = SCOPES.split(" ");
  let faulty: FaultyIssuer;
  let own: TestServer;
  const list = (accessToken: string) => own.connect().request("tools/list", {}, bearer(accessToken));
  const opaqueToken = () => clientCredentialsToken(faulty.issuer, TEST_CLIENTS.m2mOpaque, SCOPES, RESOURCE);
  const counts = () =>
    Object.fromEntries(
      (["metadata", "keys", "introspection"] as Endpoint[]).map((each) => [each, faulty.fetches(each)]),
    );
  const expectInvalidToken = (result: { status: number; headers: Headers }) => {
    expect(result.status).toBe(401);
    expect(result.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
  };
  /** A 503 to retry, and no verdict on the token: the client keeps it. */
  const expectUnavailable = (result: { status: number; headers: Headers }) => {
    expect(result.status).toBe(503);
    expect(result.headers.get("www-authenticate")).toBeNull();
  };

  beforeAll(async () => {
    faulty = await startFaultyIssuer({ resource: RESOURCE, scopes: SCOPE_LIST });
  });
  afterAll(async () => {
    await faulty?.close();
  });
  /** A server that signs in with the proxy, and introspects with this server's client credentials. */
  const introspectingServer = (env: Record<string, string> = {}) =>
    createTestServer({
      ...FIXTURES,
      env: {
        NITRO_MCP_AUTH_ISSUER: faulty.issuer,
        NITRO_MCP_RESOURCE_URL: RESOURCE,
        NITRO_MCP_AUTH_CLIENT_ID: TEST_CLIENTS.resourceServer.id,
        NITRO_MCP_AUTH_CLIENT_SECRET: TEST_CLIENTS.resourceServer.secret,
        ...env,
      },
    });
  // Each test has a server of its own: nothing it learnt (a back-off, a cached answer) reaches another test.
  beforeEach(async () => {
    faulty.recover();
    own = await introspectingServer();
  });

  it("answers a token whose introspection is refused as too large (413) with 401 invalid_token, and holds nobody else back", async () => {
    const good = await opaqueToken();
    const oversized = "o".repeat(6 * 1024); // under this server's bound, over the stand-in's body limit
    expect(oversized.length).toBeGreaterThan(INTROSPECTION_BODY_LIMIT);
    const before = faulty.fetches("introspection");
    expectInvalidToken(await list(oversized));
    expect(faulty.fetches("introspection")).toBe(before + 1);
    expect((await list(good)).status).toBe(200);
  });

  it("refuses a token longer than 8,192 characters with 401 invalid_token without asking the authorization server anything", async () => {
    const before = counts();
    const padded = await signToken((await makeSigningKey()) as Record<string, unknown>, {
      iss: faulty.issuer,
      aud: RESOURCE,
      sub: "alice",
      padding: "p".repeat(8192),
    });
    for (const tooLong of ["o".repeat(8193), padded]) expectInvalidToken(await list(tooLong));
    expect(counts()).toEqual(before);
    // One character less is checked as any token is: the stand-in is asked (and refuses it as too large).
    expectInvalidToken(await list("o".repeat(8192)));
    expect(faulty.fetches("introspection")).toBe(before.introspection! + 1);
  });

  it.each<[Refusal, string]>([
    ["400", "the request is about one token: the token is refused"],
    ["409", "not the token's fault for sure: this request waits, nobody else"],
    ["400 invalid_client", "this server's credentials"],
    ["401", "this server's credentials"],
    ["403", "this server's credentials"],
    ["404", "not an introspection endpoint"],
  ])("answers an introspection refused with %s (%s) for that request alone", async (refusal) => {
    faulty.fail("introspection", refusal);
    const result = await list(await opaqueToken());
    if (refusal === "400") expectInvalidToken(result);
    else expectUnavailable(result);
    faulty.recover();
    expect((await list(await opaqueToken())).status).toBe(200);
    if (["400 invalid_client", "401", "403"].includes(refusal))
      await expect
        .poll(() => own.logs())
        .toMatch(/client credentials.*check NITRO_MCP_AUTH_CLIENT_ID and NITRO_MCP_AUTH_CLIENT_SECRET/);
    if (refusal === "404")
      await expect.poll(() => own.logs()).toMatch(/not an introspection endpoint.*NITRO_MCP_AUTH_INTROSPECTION_URL/);
    expect(own.logs()).not.toContain(TEST_CLIENTS.resourceServer.secret);
  });

  it("leaves the authorization server alone for as long as its 429 asks, then asks again", async () => {
    const token = await opaqueToken();
    faulty.fail("introspection", "429");
    const first = await list(token);
    expectUnavailable(first);
    expect(first.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
    const before = faulty.fetches("introspection");
    expectUnavailable(await list(await opaqueToken()));
    expect(faulty.fetches("introspection")).toBe(before);
    faulty.recover();
    await expect.poll(async () => (await list(token)).status).toBe(200);
  });

  it("has at most 20 of an address's unseen tokens judged or refused a minute, even sent at once: the rest get 429, known tokens and other addresses are served", async () => {
    const proxied = await introspectingServer({ NITRO_MCP_TRUST_PROXY: "1" });
    const from = (address: string, accessToken: string) =>
      proxied
        .connect()
        .request("tools/list", {}, { headers: { authorization: `Bearer ${accessToken}`, "x-forwarded-for": address } });
    // One token sent by many requests at once is judged once, and holds one place.
    const known = await opaqueToken();
    const first = faulty.fetches("introspection");
    const together = await Promise.all(Array.from({ length: 25 }, () => from("203.0.113.7", known)));
    expect(together.map(({ status }) => status)).toEqual(Array(25).fill(200));
    expect(faulty.fetches("introspection")).toBe(first + 1);
    const before = faulty.fetches("introspection");
    // All at once: a place is taken for each token being judged, not only once it is refused.
    const made = await Promise.all(Array.from({ length: 30 }, (_, n) => from("198.51.100.9", `made-up-${n}`)));
    expect(made.filter(({ status }) => status === 401)).toHaveLength(20);
    expect(made.filter(({ status }) => status === 429)).toHaveLength(10);
    expect(faulty.fetches("introspection")).toBe(before + 20);

    for (const token of ["made-up-30", await opaqueToken()]) {
      const refused = await from("198.51.100.9", token);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.body).toMatchObject({ error: { code: 429 } });
    }
    expect(faulty.fetches("introspection")).toBe(before + 20);
    expect((await from("198.51.100.9", known)).status).toBe(200);
    expect((await from("203.0.113.7", await opaqueToken())).status).toBe(200);
    expect(faulty.fetches("introspection")).toBe(before + 21);
  });

  it("waits at most a minute, whatever a 429 asks", async () => {
    faulty.fail("introspection", "429 for a day");
    const result = await list(await opaqueToken());
    expectUnavailable(result);
    expect(Number(result.headers.get("retry-after"))).toBeLessThanOrEqual(60);
  });
});
