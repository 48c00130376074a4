/**
 * Discovery before connecting (the MCP server-card draft): `GET /mcp/server-card` and the AI Catalog at
 * `/.well-known/ai-catalog.json`, over real HTTP on the Node build (with and without settings) and
 * on each other build (`OTHER_BUILDS`). The card is validated against the draft's JSON Schema (vendored
 * in tests/fixtures-schemas/) and compared with what `server/discover` answers; headers, media types,
 * revalidation, the Host guard and the URLs are checked as raw responses.
 */
import { readFileSync } from "node:fs";
import { request } from "node:http";
import Ajv2020 from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasFeature } from "../helpers/project.mjs";
import { post, type Json } from "../helpers/rpc";
import { startServer, startServerExpectingFailure, startVercelOutput, type RunningServer } from "../helpers/server.mjs";
import { startWorker } from "../helpers/worker.mjs";

const CARD_TYPE = "application/mcp-server-card+json";
const CATALOG_TYPE = "application/ai-catalog+json";
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET",
  "access-control-allow-headers": "Content-Type, If-None-Match",
  "access-control-expose-headers": "ETag",
};

const schema = JSON.parse(readFileSync("tests/fixtures-schemas/server-card.schema.json", "utf8")) as Json;
// The schema's one format is `uri`: checked with WHATWG URL parsing, as clients will read it.
const ajv = new Ajv2020({ allErrors: true, strict: true, formats: { uri: (value: string) => URL.canParse(value) } });
ajv.addSchema(schema, "server-card.schema.json");
const validateCard = ajv.getSchema("server-card.schema.json#/$defs/ServerCard")!;

/** The card's schema errors, none when valid. */
function schemaErrors(card: unknown): unknown[] {
  return validateCard(card) ? [] : (validateCard.errors ?? []);
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with headers of our choosing (fetch sends its own Host), over a plain socket. */
function raw(url: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    request(url, { method: init.method ?? "GET", headers: init.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    })
      .on("error", reject)
      .end();
  });
}

const origin = (server: RunningServer) => new URL(server.url).origin;
const cardUrl = (server: RunningServer) => `${server.url}/server-card`;
const catalogUrl = (server: RunningServer) => `${origin(server)}/.well-known/ai-catalog.json`;

/** What server/discover says: the versions and the server's identity the card must agree with. */
async function discovered(server: RunningServer, headers: Record<string, string> = {}) {
  const { result } = (await post(server.url, "server/discover", {}, { headers })).body;
  return {
    versions: result.supportedVersions as string[],
    serverInfo: result._meta["io.modelcontextprotocol/serverInfo"] as { name: string; version: string },
  };
}

/** The card as a client following the draft asks for it, checked to be served as such. */
async function fetchCard(url: string): Promise<Json> {
  const response = await fetch(url, { headers: { accept: CARD_TYPE } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe(CARD_TYPE);
  return (await response.json()) as Json;
}

/** The card is valid, and says what server/discover says. */
async function expectConsistentCard(
  server: RunningServer,
  card: Json,
  endpoint: string,
  discoverHeaders: Record<string, string> = {},
) {
  expect(schemaErrors(card)).toEqual([]);
  const { versions, serverInfo } = await discovered(server, discoverHeaders);
  expect(card.version).toBe(serverInfo.version);
  expect(card.title).toBe(serverInfo.name);
  expect(card.remotes).toHaveLength(1);
  expect(card.remotes[0]).toMatchObject({ type: "streamable-http", url: endpoint });
  expect(card.remotes[0].supportedProtocolVersions).toEqual(versions);
}

it("the vendored schema refuses what the draft refuses", () => {
  const valid = {
    $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
    name: "com.example/x",
    version: "1.0.0",
    description: "d",
  };
  expect(schemaErrors(valid)).toEqual([]);
  expect(schemaErrors({ ...valid, name: "no-slash" })).not.toEqual([]);
  expect(schemaErrors({ ...valid, description: "x".repeat(101) })).not.toEqual([]);
  expect(schemaErrors({ ...valid, remotes: [{ type: "stdio", url: "http://x" }] })).not.toEqual([]);
});

describe("server card, Node build", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  it("serves a valid card that agrees with server/discover, named after the host", async () => {
    const card = await fetchCard(cardUrl(server));
    await expectConsistentCard(server, card, server.url);
    const { serverInfo } = await discovered(server);
    expect(card.name).toBe(`local/${serverInfo.name.replace(/[^a-zA-Z0-9._-]+/g, "-")}`); // 127.0.0.1 has no reverse-DNS form
    expect(card.description.length).toBeGreaterThan(0);
    expect(card.remotes[0].headers).toBeUndefined(); // no token needed
  });

  it("serves the catalog, whose one entry points at the card", async () => {
    const response = await fetch(catalogUrl(server));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(CATALOG_TYPE);
    const catalog = (await response.json()) as Json;
    const card = await fetchCard(cardUrl(server));
    const name = card.name.split("/")[1];
    expect(catalog).toEqual({
      specVersion: "1.0",
      entries: [{ identifier: `urn:air:local:mcp:${name}`, type: CARD_TYPE, url: cardUrl(server) }],
    });
    expect(await fetchCard(catalog.entries[0].url)).toEqual(card);
  });

  it("negotiates the media type, and says that the answer varies with Accept", async () => {
    for (const [accept, type] of [
      [CARD_TYPE, CARD_TYPE],
      [`${CARD_TYPE}, application/json;q=0.9`, CARD_TYPE],
      [undefined, CARD_TYPE],
      ["*/*", CARD_TYPE],
      ["text/html,application/xhtml+xml,*/*;q=0.8", CARD_TYPE],
      ["application/json", "application/json"],
      [`application/json, ${CARD_TYPE};q=0.5`, "application/json"],
    ] as const) {
      const response = await fetch(cardUrl(server), { headers: accept === undefined ? {} : { accept } });
      expect(response.headers.get("content-type"), String(accept)).toBe(type);
      expect(response.headers.get("vary")).toMatch(/accept/i);
      expect(schemaErrors(await response.json())).toEqual([]);
    }
    const catalog = await fetch(catalogUrl(server), { headers: { accept: "application/json" } });
    expect(catalog.headers.get("content-type")).toBe("application/json");
  });

  it("sends the draft's CORS and caching headers on both, to any origin, and revalidates with ETag", async () => {
    for (const url of [cardUrl(server), catalogUrl(server)]) {
      const response = await raw(url, { headers: { origin: "https://registry.example", accept: CARD_TYPE } });
      expect(response.status, url).toBe(200);
      expect(response.headers).toMatchObject({
        ...CORS,
        "cache-control": "public, max-age=3600",
        "x-content-type-options": "nosniff",
      });
      const etag = response.headers.etag as string;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);

      const again = await raw(url, { headers: { accept: CARD_TYPE, "if-none-match": etag } });
      expect([again.status, again.body, again.headers.etag]).toEqual([304, "", etag]);
      expect(again.headers).toMatchObject({ ...CORS, "cache-control": "public, max-age=3600" });
      expect((await raw(url, { headers: { accept: CARD_TYPE, "if-none-match": `"other", W/${etag}` } })).status).toBe(
        304,
      );
      expect((await raw(url, { headers: { accept: CARD_TYPE, "if-none-match": '"other"' } })).status).toBe(200);
      // Another representation (plain JSON) is another entity: the tag does not revalidate it.
      expect((await raw(url, { headers: { accept: "application/json", "if-none-match": etag } })).status).toBe(200);
    }
  });

  it("answers HEAD, the CORS preflight, and 405 for other methods", async () => {
    for (const url of [cardUrl(server), catalogUrl(server)]) {
      const head = await raw(url, { method: "HEAD" });
      expect([head.status, head.body]).toEqual([200, ""]);
      expect(head.headers["content-type"]).toMatch(/^application\/(mcp-server-card|ai-catalog)\+json$/);
      expect(head.headers.etag).toBeTruthy();

      const preflight = await raw(url, {
        method: "OPTIONS",
        headers: {
          origin: "https://registry.example",
          "access-control-request-method": "GET",
          "access-control-request-headers": "if-none-match",
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers).toMatchObject(CORS);

      const posted = await raw(url, { method: "POST" });
      expect([posted.status, posted.headers.allow, posted.headers["cache-control"]]).toEqual([
        405,
        "GET, HEAD, OPTIONS",
        undefined,
      ]);
    }
  });

  it("builds its URLs from a Host it answers to, and refuses any other as the front page does", async () => {
    const port = new URL(server.url).port;
    const card = JSON.parse((await raw(cardUrl(server), { headers: { host: `localhost:${port}` } })).body) as Json;
    expect(schemaErrors(card)).toEqual([]);
    expect(card.remotes[0].url).toBe(`http://localhost:${port}/mcp`);
    expect(card.name).toMatch(/^localhost\//);
    const catalog = JSON.parse(
      (await raw(catalogUrl(server), { headers: { host: `localhost:${port}` } })).body,
    ) as Json;
    expect(catalog.entries[0].url).toBe(`http://localhost:${port}/mcp/server-card`);
    expect(catalog.entries[0].identifier).toMatch(/^urn:air:localhost:mcp:/);

    for (const url of [cardUrl(server), catalogUrl(server), `${origin(server)}/`]) {
      for (const [host, status] of [
        [`evil.example:${port}`, 403],
        [`127.0.0.1:${port}"><b>`, 400],
      ] as const) {
        const refused = await raw(url, { headers: { host } });
        expect([refused.status, refused.headers["content-type"]], `${url} ${host}`).toEqual([
          status,
          "application/json",
        ]);
        expect(refused.body).not.toContain("evil.example/");
        expect(refused.headers["access-control-allow-origin"]).toBeUndefined();
      }
    }
  });
});

describe("server card, Node build with settings", () => {
  const RESOURCE = "https://mcp.example.test/mcp";
  const METADATA = "https://mcp.example.test/.well-known/oauth-protected-resource/mcp";
  const TOKEN = "server-card-test-token-0123456789";
  let configured: RunningServer;
  let tokens: RunningServer | undefined;
  beforeAll(async () => {
    [configured, tokens] = await Promise.all([
      startServer({
        env: {
          NITRO_MCP_RESOURCE_URL: RESOURCE,
          // Sign-in on: the card only names where it starts, so the issuer need not answer.
          NITRO_MCP_AUTH_ISSUER: "http://127.0.0.1:9",
          NITRO_MCP_SERVER_CARD_NAME: "test.example/card-test",
          NITRO_MCP_SERVER_DESCRIPTION: "Counts things for the server card test.",
          NITRO_MCP_LEGACY: "false",
        },
      }),
      // Static tokens are the sign-in feature's: a fork without it has no second server to ask.
      hasFeature("sign-in") ? startServer({ env: { NITRO_MCP_AUTH_TOKENS: `ci:${TOKEN}` } }) : undefined,
    ]);
  });
  afterAll(() => Promise.all([configured?.stop(), tokens?.stop()]));

  it("uses NITRO_MCP_RESOURCE_URL, whatever the Host, and the card's own settings", async () => {
    const port = new URL(configured.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const card = JSON.parse((await raw(cardUrl(configured), { headers: { host, accept: CARD_TYPE } })).body) as Json;
      expect(schemaErrors(card)).toEqual([]);
      expect(card.remotes[0].url).toBe(RESOURCE);
      expect(card.name).toBe("test.example/card-test");
      expect(card.description).toBe("Counts things for the server card test.");
      expect(card.remotes[0].supportedProtocolVersions).toEqual(["2026-07-28"]); // NITRO_MCP_LEGACY=false, as server/discover says
      const catalog = JSON.parse((await raw(catalogUrl(configured), { headers: { host } })).body) as Json;
      expect(catalog.entries).toEqual([
        { identifier: "urn:air:example.test:mcp:card-test", type: CARD_TYPE, url: `${RESOURCE}/server-card` },
      ]);
    }
  });

  it.runIf(hasFeature("sign-in"))("says that sign-in is required, and where it starts", async () => {
    const card = await fetchCard(cardUrl(configured));
    expect(card.remotes[0].headers).toEqual([
      { name: "Authorization", isRequired: true, isSecret: true, description: expect.stringContaining(METADATA) },
    ]);
    expect((await post(configured.url, "server/discover")).status).toBe(401); // the card is public; the endpoint is not
  });

  it.runIf(hasFeature("sign-in"))(
    "says that a token is required with NITRO_MCP_AUTH_TOKENS, and never shows one",
    async () => {
      const server = tokens!;
      const response = await fetch(cardUrl(server), { headers: { accept: CARD_TYPE } });
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(text).not.toContain(TOKEN);
      const card = JSON.parse(text) as Json;
      await expectConsistentCard(server, card, server.url, { authorization: `Bearer ${TOKEN}` });
      expect(card.remotes[0].headers).toEqual([
        expect.objectContaining({
          name: "Authorization",
          isRequired: true,
          isSecret: true,
          value: "Bearer {token}",
          variables: { token: expect.objectContaining({ isRequired: true, isSecret: true }) },
        }),
      ]);
    },
  );

  it("refuses to start with a card name the draft would refuse, naming the setting", async () => {
    const { code, output } = await startServerExpectingFailure({
      NITRO_MCP_SERVER_CARD_NAME: "no-slash-here",
      NITRO_MCP_STATE_SECRET: "x".repeat(32),
    });
    expect(code).not.toBe(0);
    expect(output).toContain("NITRO_MCP_SERVER_CARD_NAME must look like com.example/name");
  });
});

/** The builds beside Node's that serve it too. */
const OTHER_BUILDS: [string, () => Promise<RunningServer>][] = [["Vercel output", startVercelOutput]];
// with:cloudflare
OTHER_BUILDS.unshift(["Cloudflare build in workerd", startWorker]);
// end with:cloudflare

describe.each(OTHER_BUILDS)("server card, %s", (_, start) => {
  let target: RunningServer;
  beforeAll(async () => {
    target = await start();
  });
  afterAll(() => target?.stop());

  it("serves a valid card that agrees with server/discover, and the catalog pointing at it, with their headers", async () => {
    const card = await fetchCard(cardUrl(target));
    await expectConsistentCard(target, card, target.url);
    for (const url of [cardUrl(target), catalogUrl(target)]) {
      const response = await fetch(url, { headers: { origin: "https://registry.example" } });
      expect(response.status).toBe(200);
      for (const [name, value] of Object.entries({ ...CORS, "cache-control": "public, max-age=3600" }))
        expect(response.headers.get(name), name).toBe(value);
      const etag = response.headers.get("etag")!;
      expect((await fetch(url, { headers: { "if-none-match": etag } })).status).toBe(304);
    }
    const catalog = (await (await fetch(catalogUrl(target))).json()) as Json;
    expect(catalog.entries).toEqual([expect.objectContaining({ type: CARD_TYPE, url: cardUrl(target) })]);
  });
});
