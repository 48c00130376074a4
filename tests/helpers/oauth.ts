/**
 * Sign-in for tests, against the development authorization server (server/features/sign-in/dev/auth-server.mjs):
 * its login page driven with fetch (no browser), an OAuth client provider for the official client,
 * tokens by client credentials, and tokens the test signs itself to try every kind of bad token.
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import { importJWK, SignJWT, type JWTPayload } from "jose";

/** A cookie jar for the login pages, whose cookies are scoped to paths. */
class CookieJar {
  private cookies = new Map<string, { name: string; value: string; path: string }>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";").map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      let path = "/";
      let expired = value === "";
      for (const attribute of attributes) {
        const [key = "", setting = ""] = attribute.split("=");
        if (key.toLowerCase() === "path") path = setting || "/";
        if (key.toLowerCase() === "expires" && Date.parse(setting) <= Date.now()) expired = true;
        if (key.toLowerCase() === "max-age" && Number(setting) <= 0) expired = true;
      }
      if (expired) this.cookies.delete(`${name} ${path}`);
      else this.cookies.set(`${name} ${path}`, { name, value, path });
    }
  }

  header(url: URL): string {
    return [...this.cookies.values()]
      .filter(({ path }) => url.pathname === path || url.pathname.startsWith(path.endsWith("/") ? path : `${path}/`))
      .map(({ name, value }) => `${name}=${value}`)
      .join("; ");
  }
}

const unescapeHtml = (text: string) =>
  text
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x2F;/g, "/")
    .replace(/&#39;/g, "'");

/**
 * Signs in on the authorization server's development login page and consents, as a person would
 * in a browser; returns the redirect back to the client (with `code`, `state` and `iss`).
 */
export async function completeDevLogin(authorizationUrl: URL, login = "alice"): Promise<URL> {
  const jar = new CookieJar();
  const callback = authorizationUrl.searchParams.get("redirect_uri")!;
  let url = authorizationUrl;
  let init: RequestInit = {};
  for (let step = 0; step < 12; step++) {
    const cookie = jar.header(url);
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    jar.store(response);
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const next = new URL(response.headers.get("location")!, url);
      if (next.href.startsWith(callback)) return next;
      [url, init] = [next, {}];
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"[^>]*method="post"/i.exec(page)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (response.status !== 200 || !action || !prompt)
      throw new Error(`login page ${response.status} at ${url}: ${page.slice(0, 300)}`);
    const form = new URLSearchParams({ prompt, ...(prompt === "login" ? { login, password: "any" } : {}) });
    url = new URL(unescapeHtml(action), url);
    init = { method: "POST", body: form.toString(), headers: { "content-type": "application/x-www-form-urlencoded" } };
  }
  throw new Error("the login took too many steps");
}

const CALLBACK = "http://127.0.0.1:8123/callback";

/**
 * An OAuth client provider for the official client that signs in as `login` on the development
 * login page whenever the client is sent there. `callback` holds the last redirect back.
 */
export class DevLoginProvider implements OAuthClientProvider {
  callback?: URL;
  private saved: Record<string, any> = {};

  constructor(private readonly login = "alice") {}

  get redirectUrl() {
    return CALLBACK;
  }
  get clientMetadata() {
    return {
      client_name: "template tests",
      redirect_uris: [CALLBACK],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    const state = crypto.randomUUID();
    this.saved.state = state;
    return state;
  }
  clientInformation() {
    return this.saved.client;
  }
  saveClientInformation(information: unknown) {
    this.saved.client = information;
  }
  tokens() {
    return this.saved.tokens;
  }
  saveTokens(tokens: unknown) {
    this.saved.tokens = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.saved.verifier = verifier;
  }
  codeVerifier() {
    return this.saved.verifier;
  }
  saveDiscoveryState(state: unknown) {
    this.saved.discovery = state;
  }
  discoveryState() {
    return this.saved.discovery;
  }
  async redirectToAuthorization(url: URL) {
    this.callback = await completeDevLogin(url, this.login);
    // The client does not check `state`; a real app must.
    if (this.callback.searchParams.get("state") !== this.saved.state) throw new Error("state mismatch");
  }
}

/** An access token from the client-credentials grant (`m2m-client`: a JWT; `m2m-opaque-client`: opaque). */
export async function clientCredentialsToken(
  issuer: string,
  client: { id: string; secret: string },
  scope: string,
  resource: string,
): Promise<string> {
  const response = await fetch(`${issuer}/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${btoa(`${client.id}:${client.secret}`)}`,
    },
    body: new URLSearchParams({ grant_type: "client_credentials", scope, resource }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** Revokes an opaque token at the authorization server, as its client. */
export async function revokeToken(
  issuer: string,
  client: { id: string; secret: string },
  token: string,
): Promise<void> {
  const response = await fetch(`${issuer}/token/revocation`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${btoa(`${client.id}:${client.secret}`)}`,
    },
    body: new URLSearchParams({ token }),
  });
  if (!response.ok) throw new Error(`revocation failed: ${response.status}`);
}

/** A JWT signed by the test with `key` (a private JWK), for claims and headers a real server would not issue. */
export async function signToken(
  key: Record<string, unknown>,
  claims: JWTPayload,
  header: Record<string, unknown> = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iat: now, exp: now + 300, ...claims })
    .setProtectedHeader({ alg: key.alg as string, kid: key.kid as string, typ: "at+jwt", ...header })
    .sign(await importJWK(key as never, key.alg as string));
}

/** `Authorization: Bearer <token>` as request options. */
export const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** An authorization server as a test sees it at run time: its issuer, the resource its tokens are for, its signing key (a private JWK). */
export interface TestIssuer {
  readonly issuer: string;
  readonly resource: string;
  readonly key: Record<string, unknown>;
}

/**
 * Every kind of token a server must answer with 401 invalid_token, each made at test time from `current()`;
 * `foreignKey` makes a key the issuer does not publish.
 */
export function badTokens(
  current: () => TestIssuer,
  foreignKey: () => Promise<Record<string, unknown>>,
): [string, () => Promise<string>][] {
  const token = (claims: JWTPayload = {}, header: Record<string, unknown> = {}, key = current().key) =>
    signToken(
      key,
      {
        iss: current().issuer,
        aud: current().resource,
        sub: "alice",
        scope: "fixtures:read fixtures:write",
        client_id: "c",
        ...claims,
      },
      header,
    );
  return [
    ["expired", () => token({ exp: Math.floor(Date.now() / 1000) - 60 })],
    ["not yet valid", () => token({ nbf: Math.floor(Date.now() / 1000) + 60 })],
    ["from another issuer", () => token({ iss: "https://issuer.example" })],
    ["for another resource", () => token({ aud: "https://other.example/mcp" })],
    ["an ID token (typ JWT, audience a client)", () => token({ aud: "some-client" }, { typ: "JWT" })],
    ["of another type", () => token({}, { typ: "dpop+jwt" })],
    [
      "without a signature (alg none)",
      async () => {
        const claims = {
          iss: current().issuer,
          aud: current().resource,
          sub: "alice",
          exp: Math.floor(Date.now() / 1000) + 60,
        };
        return `${btoa(JSON.stringify({ alg: "none", typ: "at+jwt" }))}.${btoa(JSON.stringify(claims))}.`.replace(
          /=/g,
          "",
        );
      },
    ],
    [
      "HMAC-signed with the public key as the secret",
      async () => {
        const { d: _private, ...publicKey } = current().key;
        return signToken(
          { kty: "oct", k: btoa(JSON.stringify(publicKey)).replace(/=/g, ""), alg: "HS256", kid: publicKey.kid },
          { iss: current().issuer, aud: current().resource, sub: "alice" },
        );
      },
    ],
    ["signed by a key the issuer does not publish", async () => token({}, {}, await foreignKey())],
    ["an opaque token nobody issued", async () => "opaque-token-nobody-issued"],
  ];
}
