import { describe, expect, it } from "vitest";
import { startAuthServer } from "../../server/features/sign-in/dev/auth-server.mjs";
import { bearer, signToken } from "../helpers/oauth";
import { post } from "../helpers/rpc";
import { freePort, startServer, startServerExpectingFailure } from "../helpers/server.mjs";
import { describeSignIn } from "./sign-in";

describeSignIn("Node build", ({ port, env }) => startServer({ env: { ...env, PORT: String(port) } }));

describe("sign-in configuration", () => {
  it("refuses to start with an issuer but no NITRO_MCP_RESOURCE_URL, saying what to set", async () => {
    const { code, output } = await startServerExpectingFailure({ NITRO_MCP_AUTH_ISSUER: "http://127.0.0.1:9" });
    expect(code).not.toBe(0);
    expect(output).toMatch(
      /NITRO_MCP_AUTH_ISSUER is set but NITRO_MCP_RESOURCE_URL is not: set it to the URL clients use/,
    );
  });

  it("accepts static tokens and access tokens side by side", async () => {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    const auth = await startAuthServer({ resource });
    const server = await startServer({
      env: {
        PORT: String(port),
        NITRO_MCP_AUTH_ISSUER: auth.issuer,
        NITRO_MCP_RESOURCE_URL: resource,
        NITRO_MCP_AUTH_TOKENS: "ci:static-token-0123456789",
      },
    });
    expect((await post(server.url, "tools/list", {}, bearer("static-token-0123456789"))).status).toBe(200);
    const jwt = await signToken(auth.keys[0] as Record<string, unknown>, {
      iss: auth.issuer,
      aud: resource,
      sub: "alice",
    });
    expect((await post(server.url, "tools/list", {}, bearer(jwt))).status).toBe(200);
    expect((await post(server.url, "tools/list", {}, bearer("static-token-012345678X"))).status).toBe(401);
    await server.stop();
    await auth.close();
  });
});
