/**
 * The core's routes besides POST /mcp, on the Node fixtures build: a JSON 404 for every unknown path, 405 for any other verb on
 * /mcp; and, in a fork without the front page feature, the same answers for a browser at / and /mcp.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { hasFeature } from "../helpers/project.mjs";
import { expectJson404, post } from "../helpers/rpc";
import { startServer, type RunningServer } from "../helpers/server.mjs";

const HTML_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const origin = (server: RunningServer) => new URL(server.url).origin;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

it("answers unknown paths with a JSON 404, whatever the method and Accept, and keeps the other routes", async () => {
  for (const init of [
    {},
    { method: "POST", body: "{}" },
    { headers: { accept: HTML_ACCEPT } },
    { method: "DELETE" },
  ] as RequestInit[]) {
    await expectJson404(await fetch(`${origin(server)}/nope`, init), "/nope");
  }
  const deep = await fetch(`${origin(server)}/a/${"x".repeat(500)}?q=1`);
  expect((await deep.json()).path).toBe(`/a/${"x".repeat(197)}…`); // clipped, like every value a client sends

  expect((await post(server.url, "server/discover")).status).toBe(200);
  expect((await fetch(`${origin(server)}/_test/memory`)).status).toBe(200); // a fixture-only route
  if (hasFeature("sign-in")) {
    const metadata = await fetch(`${origin(server)}/.well-known/oauth-protected-resource/mcp`);
    expect(await metadata.json()).toMatchObject({ error: "not_found" }); // its own answer: sign-in is off
  }
});

it.runIf(!hasFeature("front-page"))(
  "answers a browser at / with the JSON 404 and at /mcp with 405, without the front page",
  async () => {
    await expectJson404(await fetch(`${origin(server)}/`, { headers: { accept: HTML_ACCEPT } }), "/");
    const mcp = await fetch(server.url, { headers: { accept: HTML_ACCEPT } });
    expect(mcp.status).toBe(405);
    expect(mcp.headers.get("allow")).toBe("POST");
    expect((await mcp.json()).error.code).toBe(-32600);
  },
);
