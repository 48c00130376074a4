/**
 * Sign-in's rules in-process: the challenges, every kind of bad token, scopes per definition in both eras,
 * principals from `sub` and `client_id`. The authorization server is a stand-in answering the server's
 * `fetch` of its metadata and keys (no network). The official client signing in on a real authorization
 * server, introspection, and an issuer that fails, on Node and in workerd: tests/targets/sign-in.ts.
 */
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestServer, type TestClient, type TestServer } from "../../helpers/in-process";
import { badTokens, bearer, signToken } from "../../helpers/oauth";
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
const token = (claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}, with_ = key) =>
  signToken(
    with_ as Record<string, unknown>,
    { iss: ISSUER, aud: RESOURCE, sub: "alice", scope: SCOPES, client_id: "c", ...claims },
    header,
  );

beforeAll(async () => {
  key = await signingKey("k1");
  vi.stubGlobal("fetch", async (input: string | URL | Request) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url === `${ISSUER}/.well-known/oauth-authorization-server`)
      return Response.json({ issuer: ISSUER, jwks_uri: `${ISSUER}/jwks` });
    if (url === `${ISSUER}/jwks`) return Response.json({ keys: [publicPart(key)] });
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
