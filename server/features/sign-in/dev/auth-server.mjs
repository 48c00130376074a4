#!/usr/bin/env node
/**
 * `npm run auth-server`: a real OAuth 2.1 / OpenID authorization server for development and tests
 * (oidc-provider, a certified OpenID provider; a devDependency, never part of a build), on 127.0.0.1.
 *
 * - Access tokens for this MCP server are JWTs (RFC 9068, `typ: at+jwt`) whose audience is the
 *   resource the client asked for with `resource` (RFC 8707): the MCP endpoint's URL.
 * - Clients register on their own: Client ID Metadata Documents, or dynamic registration.
 * - Authorization code with PKCE (S256), on its development login page: any user name signs in.
 *   Authorization responses carry `iss` (RFC 9207).
 * - For tests: client credentials (`m2m-client`: JWTs; `m2m-opaque-client`: opaque tokens), and
 *   `mcp-resource-server`, the client this MCP server introspects opaque tokens with (RFC 7662).
 *
 *   npm run auth-server                      issuer http://127.0.0.1:4000, for http://127.0.0.1:3000/mcp
 *   PORT=4100 NITRO_MCP_RESOURCE_URL=http://127.0.0.1:3100/mcp npm run auth-server
 */
import { createServer } from "node:http";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { errors } from "oidc-provider";

export const DEV_SCOPES = ["notes:read", "notes:write"];
export const TEST_CLIENTS = {
  m2m: { id: "m2m-client", secret: "m2m-secret" },
  m2mOpaque: { id: "m2m-opaque-client", secret: "m2m-opaque-secret" },
  resourceServer: { id: "mcp-resource-server", secret: "mcp-resource-server-secret" },
};

/** A private signing key (oidc-provider publishes the public half at its jwks_uri). */
export async function makeSigningKey(alg = "ES256") {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  return {
    ...(await exportJWK(privateKey)),
    kid: `${alg.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}`,
    alg,
    use: "sig",
  };
}

/**
 * oidc-provider's own memory adapter belongs to one Provider; this one outlives them, so a key
 * rotation (a new Provider behind the same issuer) keeps registered clients, grants and tokens.
 */
function sharedMemoryAdapter(store = new Map()) {
  const read = (key) => {
    const entry = store.get(key);
    if (entry?.expiresAt && entry.expiresAt <= Date.now()) store.delete(key);
    else return entry?.value;
  };
  const write = (key, value, expiresIn) =>
    store.set(key, { value, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : 0 });
  return class SharedMemoryAdapter {
    constructor(model) {
      this.model = model;
    }
    key(id) {
      return `${this.model}:${id}`;
    }
    async upsert(id, payload, expiresIn) {
      write(this.key(id), payload, expiresIn);
      if (this.model === "Session") write(`sessionUid:${payload.uid}`, id, expiresIn);
      if (payload.userCode) write(`userCode:${payload.userCode}`, id, expiresIn);
      if (payload.grantId)
        write(`grant:${payload.grantId}`, [...(read(`grant:${payload.grantId}`) ?? []), this.key(id)], 0);
    }
    async find(id) {
      return read(this.key(id));
    }
    async findByUid(uid) {
      const id = read(`sessionUid:${uid}`);
      return id && this.find(id);
    }
    async findByUserCode(userCode) {
      const id = read(`userCode:${userCode}`);
      return id && this.find(id);
    }
    async consume(id) {
      const payload = read(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId) {
      for (const key of read(`grant:${grantId}`) ?? []) store.delete(key);
      store.delete(`grant:${grantId}`);
    }
  };
}

function createProvider(issuer, keys, state) {
  const { scopes, adapter } = state;
  const opaqueClients = new Set([TEST_CLIENTS.m2mOpaque.id]);
  const secretClient = (client, grants) => ({
    client_id: client.id,
    client_secret: client.secret,
    grant_types: grants,
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: "client_secret_basic",
  });
  return new Provider(issuer, {
    adapter,
    // The development login page accepts any user name; it becomes the token's `sub`.
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    jwks: { keys },
    cookies: { keys: ["development-only-cookie-key"] },
    scopes: ["openid", "offline_access", ...scopes],
    // A client registers with the scope of its first challenge; oidc-provider would then refuse any
    // other scope for it, and a step-up (asking for more) would fail. Registrations keep no scope.
    extraClientMetadata: {
      properties: ["urn:mcp-dev:unused"],
      validator(_ctx, _key, _value, metadata) {
        delete metadata.scope;
      },
    },
    clients: [
      secretClient(TEST_CLIENTS.m2m, ["client_credentials"]),
      secretClient(TEST_CLIENTS.m2mOpaque, ["client_credentials"]),
      secretClient(TEST_CLIENTS.resourceServer, []),
    ],
    clientDefaults: {
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: keys[0].alg,
    },
    responseTypes: ["code"],
    pkce: { required: () => true },
    ttl: {
      AccessToken: 600,
      ClientCredentials: 600,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      RefreshToken: 86400,
    },
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      clientIdMetadataDocument: { enabled: true, ack: "draft-02", allowFetch: () => true },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? state.resource,
        getResourceServerInfo(_ctx, indicator, client) {
          if (indicator !== state.resource) throw new errors.InvalidTarget();
          const opaque = opaqueClients.has(client.clientId);
          return {
            scope: scopes.join(" "),
            audience: state.resource,
            accessTokenTTL: 600,
            accessTokenFormat: opaque ? "opaque" : "jwt",
            ...(opaque ? {} : { jwt: { sign: { alg: keys[0].alg } } }),
          };
        },
      },
    },
    renderError(ctx, out) {
      ctx.type = "json";
      ctx.body = out;
    },
  });
}

/**
 * Starts the authorization server on 127.0.0.1 (`port` 0: a free one). `issuer` names it when it is
 * reached through something else (the tests' fault-injecting proxy); by default it is its own address.
 * @param {{ port?: number, issuer?: string, resource?: string, scopes?: string[], keys?: object[] }} [options]
 */
export async function startAuthServer(options = {}) {
  const server = createServer();
  await new Promise((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const issuer = options.issuer ?? `http://127.0.0.1:${server.address().port}`;
  let keys = options.keys ?? [await makeSigningKey()];
  const state = {
    resource: options.resource ?? "http://127.0.0.1:3000/mcp",
    scopes: options.scopes ?? DEV_SCOPES,
    adapter: sharedMemoryAdapter(),
  };
  let handle = createProvider(issuer, keys, state).callback();
  server.on("request", (req, res) => handle(req, res));
  const reload = () => (handle = createProvider(issuer, keys, state).callback());
  return {
    issuer,
    /** Where it listens (the issuer, unless `issuer` named another). */
    address: `http://127.0.0.1:${server.address().port}`,
    /** The signing keys, newest first (private JWKs: tests sign their own tokens with them). */
    get keys() {
      return keys;
    },
    /** Issue tokens for another resource URL (e.g. once the MCP server's port is known). */
    setResource(resource) {
      state.resource = resource;
      reload();
    },
    /** Signs with a new key from now on; the old ones stay published, so their tokens still verify. */
    async rotateKeys() {
      keys = [await makeSigningKey(keys[0].alg), ...keys];
      reload();
      return keys[0];
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const resource = process.env.NITRO_MCP_RESOURCE_URL ?? "http://127.0.0.1:3000/mcp";
  const auth = await startAuthServer({ port: Number(process.env.PORT ?? 4000), resource });
  console.log(`Authorization server on ${auth.issuer}, issuing tokens for ${resource} (scopes ${DEV_SCOPES.join(", ")}).
Start the MCP server with sign-in on:
  NITRO_MCP_AUTH_ISSUER=${auth.issuer} NITRO_MCP_RESOURCE_URL=${resource} NITRO_MCP_AUTH_SCOPES=notes:read npm run dev
Any user name signs in on its login page. Stop with Ctrl+C.`);
}
