/**
 * Resource updates on `subscriptions/listen` (2026-07-28), in-process on the memory bus, read as the stream comes
 * (`server.stream`): the acknowledgement, the updates a change brings (the fixture `change_resource` calls the
 * `resourceChanged` helper), the refusals, and principals (each caller's share: fair-shares.test.ts). The examples' `delete_note`:
 * tests/unit/examples-in-process.example.test.ts; across instances, per bus driver: tests/targets/resource-updates.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type Json, type TestServer } from "../../helpers/in-process";
import { hasFeature } from "../../helpers/project.mjs";
import { openListen, resourceUpdated as updated } from "../../helpers/rpc";
import { FIXTURES } from "./flows";

const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

const listen = (server: TestServer, uris: unknown, headers: Record<string, string> = {}) =>
  openListen((request) => server.stream(request), "http://localhost/mcp", { resourceSubscriptions: uris }, headers);

describe("resource updates on subscriptions/listen", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer(FIXTURES);
  });
  const change = (uri: string) => server.connect().callTool("change_resource", { uri });

  it("declares resources.subscribe in server/discover", async () => {
    const discover = await server.connect().request("server/discover", {});
    expect(discover.body.result.capabilities.resources).toEqual({ subscribe: true });
  });

  it("acknowledges the URIs asked for (once each), then carries their changes and no other", async () => {
    const { id, response, stream, first } = await listen(server, [
      "fixture://items/1",
      "fixture://about",
      "fixture://items/1",
    ]);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(first).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: {
        _meta: { [SUBSCRIPTION_ID]: id },
        notifications: { resourceSubscriptions: ["fixture://items/1", "fixture://about"] },
      },
    });
    await change("fixture://items/12");
    await change("fixture://about");
    await change("fixture://items/1");
    expect([await stream.next(), await stream.next()]).toEqual([
      updated(id, "fixture://about"),
      updated(id, "fixture://items/1"),
    ]);
    await stream.close();
  });

  it.each([
    ["a URI no resource has", ["nothing://here"]],
    ["a URI of no template", ["fixture://items/a/b"]],
    ["more than 20 URIs", Array.from({ length: 21 }, (_, index) => `fixture://items/${index}`)],
    ["a string instead of a list", "fixture://items/1"],
    ["a number in the list", ["fixture://items/1", 7]],
    ["a URI longer than 2048 characters", [`fixture://items/${"x".repeat(2048)}`]],
  ])("refuses %s with -32602, before acknowledging anything", async (_, uris) => {
    const refused = await server
      .connect()
      .request("subscriptions/listen", { notifications: { resourceSubscriptions: uris as Json } });
    expect(refused.status).toBe(200);
    expect(refused.body.error.code).toBe(-32602);
    expect(refused.messages).toHaveLength(1);
  });

  it.runIf(hasFeature("tasks"))(
    "lets go of its subscriptions when another source refuses the same listen (bad taskIds): the caller's share stays free",
    async () => {
      const uri = "fixture://items/16";
      for (let round = 0; round < 201; round++) {
        // More rounds than the caller's share of subscriptions (NITRO_MCP_CALLER_SUBSCRIPTIONS, 200): none may stay held.
        const refused = await server
          .connect()
          .request("subscriptions/listen", { notifications: { resourceSubscriptions: [uri], taskIds: "not a list" } });
        expect(refused.body.error.code).toBe(-32602);
      }
      const { first, stream } = await listen(server, [uri]);
      expect(first?.params.notifications).toEqual({ resourceSubscriptions: [uri] });
      await stream.close();
    },
  );

  it("ends the stream at once when no resource is asked for", async () => {
    const result = await server
      .connect()
      .request("subscriptions/listen", { notifications: { resourceSubscriptions: [] } }, { id: "empty" });
    expect(result.messages.map((message) => message.method ?? "response")).toEqual([
      "notifications/subscriptions/acknowledged",
      "response",
    ]);
    expect(result.messages[0]!.params.notifications).toEqual({});
  });
});

describe("resource updates and principals", () => {
  it.runIf(hasFeature("sign-in"))(
    "carries a change announced for one caller to that caller's streams only; a public one to everyone",
    async () => {
      const server = await createTestServer({
        ...FIXTURES,
        env: { NITRO_MCP_AUTH_TOKENS: "alice:alice-token-0123456789,bob:bob-token-0123456789" },
      });
      const as = (name: string) => ({ authorization: `Bearer ${name}-token-0123456789` });
      const [mine, everyones] = ["fixture://items/1", "fixture://items/12"];
      const alice = await listen(server, [mine, everyones], as("alice"));
      const bob = await listen(server, [mine, everyones], as("bob"));
      expect(bob.first?.params.notifications).toEqual({ resourceSubscriptions: [mine, everyones] });

      const change = (who: string, uri: string, only_me: boolean) =>
        server.connect({ headers: as(who) }).callTool("change_resource", { uri, only_me });
      await change("alice", mine, true);
      await change("alice", everyones, false);
      expect(await alice.stream.next()).toEqual(updated(alice.id, mine));
      expect(await alice.stream.next()).toEqual(updated(alice.id, everyones));
      // Bob's first update is the public one: alice's own never reached him.
      expect(await bob.stream.next()).toEqual(updated(bob.id, everyones));
      await bob.stream.close();
      await change("bob", mine, true);
      await change("alice", everyones, true);
      expect(await alice.stream.next()).toEqual(updated(alice.id, everyones));
      await alice.stream.close();
    },
  );
});
