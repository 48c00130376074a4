/**
 * The seam holds a feature added the way a forker adds one: tests/fixtures/audit-log/ declares its own definition option
 * and plugs an observer, an authenticator, a request check, a dispatch wrapper and a describer into the core's hooks,
 * beside the optional features that use the same hooks (observability, sign-in, rate limits). Each hook keeps every
 * listener, in the order the plugins added them: the features' folders first, then the fork's.
 */
import { describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../helpers/in-process";
import { hasFeature } from "../helpers/project.mjs";

const AUDIT = "tests/fixtures/audit-log";
const ALICE = "alice-token-0123456789";
const AUDITOR = { "x-audit-key": "auditor-key-0123456789" };

const trail = async (server: TestServer) =>
  (await (await server.fetch(new Request("http://localhost/_test/audit"))).json()) as string[];

describe("a forker's feature beside the template's", () => {
  it("lists its option as the _meta its describer adds, on the definitions that set it only", async () => {
    const client = (await createTestServer({ scanDirs: [AUDIT, "tests/fixtures"] })).connect();
    const { tools } = (await client.request("tools/list")).body.result;
    const meta = Object.fromEntries(tools.map((tool: { name: string; _meta?: object }) => [tool.name, tool._meta]));
    expect(meta.audited_echo).toEqual({ "com.example/audited": true });
    expect(meta.structured_sum).toBeUndefined();
  });

  it("wraps dispatch for its definitions and observes every request, with the template's observer logging too", async () => {
    const server = await createTestServer({ scanDirs: [AUDIT, "tests/fixtures"] });
    const client = server.connect();
    // Ids of their own: a server of an earlier test may still write its batch of request lines into the same capture.
    const ids = ["forker-echo", "forker-sum"];
    const echoed = await client.request(
      "tools/call",
      { name: "audited_echo", arguments: { text: "hi" } },
      { id: ids[0] },
    );
    expect(echoed.body.result.content).toEqual([{ type: "text", text: "hi" }]);
    await client.request("tools/call", { name: "structured_sum", arguments: { a: 1, b: 2 } }, { id: ids[1] });
    await expect
      .poll(() => trail(server))
      .toEqual([
        "call audited_echo by anonymous",
        "answered audited_echo",
        "request anonymous 200",
        "request anonymous 200",
      ]);
    if (hasFeature("observability"))
      await expect
        .poll(() => ids.map((id) => server.logs().includes(`"requestId":"${id}","method":"tools/call"`)))
        .toEqual([true, true]);
  });

  describe.runIf(hasFeature("sign-in"))("with sign-in", () => {
    const server = () =>
      createTestServer({ scanDirs: [AUDIT, "tests/fixtures"], env: { NITRO_MCP_AUTH_TOKENS: `alice:${ALICE}` } });

    it("takes the caller from the first authenticator that knows it: a bearer token, else the auditor's key", async () => {
      const instance = await server();
      const call = (headers: Record<string, string>) =>
        instance.connect({ headers }).request("tools/call", { name: "audited_echo", arguments: { text: "x" } });
      expect((await call({ authorization: `Bearer ${ALICE}` })).status).toBe(200);
      expect((await call(AUDITOR)).status).toBe(200);
      await expect
        .poll(() => trail(instance))
        .toEqual(expect.arrayContaining(["call audited_echo by alice", "call audited_echo by auditor"]));
    });

    it("refuses a caller no authenticator knows with sign-in's challenge, and observes the refusal", async () => {
      const instance = await server();
      const refused = await instance.connect().request("tools/list");
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);
      const wrongToken = await instance
        .connect({ headers: { authorization: "Bearer wrong-token-0123456789", ...AUDITOR } })
        .request("tools/list");
      expect(wrongToken.status).toBe(401); // a bearer token sign-in refuses is an answer, not a pass to the next
      await expect.poll(() => trail(instance)).toEqual(["request - 401", "request - 401"]);
    });
  });

  describe.runIf(hasFeature("rate-limit"))("with rate limits", () => {
    it("runs the request checks in order: the rate limit's refusal comes first, then the fork's", async () => {
      const instance = await createTestServer({
        scanDirs: [AUDIT, "tests/fixtures"],
        env: { NITRO_MCP_RATE_LIMIT: "2/1h" },
      });
      const client = instance.connect();
      const call = (headers: Record<string, string> = {}) =>
        client.request("tools/call", { name: "structured_sum", arguments: { a: 1, b: 2 } }, { headers });
      expect((await call({ "x-audit": "refuse" })).status).toBe(403);
      expect((await call()).status).toBe(200);
      expect((await call({ "x-audit": "refuse" })).status).toBe(429);
      await expect
        .poll(() => trail(instance))
        .toEqual(["request anonymous 403", "request anonymous 200", "request anonymous 429"]);
    });
  });
});
