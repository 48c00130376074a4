/**
 * A fork's hooks with the mistakes a forker can make (tests/fixtures/faulty-hooks/) meet a core that contains them: an
 * observer that throws is logged and the request and the other observers go on; one request's code cannot change what the
 * next anonymous caller may do; an authorizer written as an `async` function refuses instead of letting every request
 * through.
 */
import { describe, expect, it } from "vitest";
import { createTestServer } from "../helpers/in-process";

const FAULTY = "tests/fixtures/faulty-hooks";
// The audit log's observer comes after the faulty one (plugins run in the order of their scan dirs).
const AUDIT = "tests/fixtures/audit-log";

const trail = async (server: Awaited<ReturnType<typeof createTestServer>>) =>
  (await (await server.fetch(new Request("http://localhost/_test/audit"))).json()) as string[];

const sum = { name: "structured_sum", arguments: { a: 1, b: 2 } };

describe("hooks a fork got wrong", () => {
  it.each(["start", "read", "end"])(
    "an observer whose %s throws is logged, and the request and the next observer go on",
    async (moment) => {
      const server = await createTestServer({ scanDirs: [FAULTY, AUDIT, "tests/fixtures"] });
      const answer = await server.connect().request("tools/call", sum, { headers: { "x-faulty": moment } });
      expect(answer.status).toBe(200);
      expect(answer.body.result.structuredContent).toEqual({ sum: 3 });
      await expect.poll(() => trail(server)).toEqual(["request anonymous 200"]);
      await expect.poll(() => server.logs()).toContain(`A request observer's ${moment} failed`);
      expect(server.logs()).toContain(`the faulty observer's ${moment}`);
    },
  );

  it("an authenticator that identifies a caller without naming it refuses the request instead of serving it", async () => {
    const server = await createTestServer({ scanDirs: [FAULTY, "tests/fixtures"] });
    const refused = await server.connect().request("tools/call", sum, { headers: { "x-faulty": "nameless" } });
    expect(refused.status).toBe(500);
    expect(refused.body.error).toMatchObject({ code: -32603 });
    await expect.poll(() => server.logs()).toContain("Authenticator gave no principal");
  });

  it("one request's code cannot widen what the next anonymous caller may do", async () => {
    const server = await createTestServer({ scanDirs: [FAULTY, "tests/fixtures"] });
    const client = server.connect();
    const widened = await client.request("tools/call", sum, { headers: { "x-faulty": "widen" } });
    expect(widened.body.error).toMatchObject({ code: -32603 });
    const shown = await client.request("tools/call", sum, { headers: { "x-faulty": "scopes" } });
    expect(shown.body.result.content).toEqual([{ type: "text", text: "scopes: []" }]);
  });

  it("an authorizer written as an async function refuses every request, where it would have let them all through", async () => {
    const server = await createTestServer({
      scanDirs: [FAULTY, "tests/fixtures"],
      env: { FAULTY_ASYNC_AUTHORIZER: "1" },
    });
    const client = server.connect();
    for (const [method, params] of [
      ["tools/call", sum],
      ["tools/list", {}],
    ] as const) {
      const refused = await client.request(method, params);
      expect(refused.status, method).toBe(500);
      expect(refused.body.error).toMatchObject({ code: -32603 });
      expect(refused.body).not.toHaveProperty("result");
    }
    await expect.poll(() => server.logs()).toContain("An authorizer must decide synchronously");
  });
});
