/**
 * Resource updates for 2025-era clients (server/features/legacy/subscriptions.ts) against the Node build, over real HTTP:
 * the official 1.x client subscribes on its session and hears `notifications/resources/updated` on its GET stream, then
 * the hostile cases with a raw client. The fixture build runs on the memory store, whose message bus serves this one process.
 */
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  changeUntilHeard,
  heardUpdates,
  initializeLegacy,
  officialLegacyClient,
  openLegacyStream,
  postLegacy,
} from "../helpers/legacy";
import { startServer, type RunningServer } from "../helpers/server.mjs";
import { hasFeature } from "../helpers/project.mjs";

// Asking 2025-era clients and their resource updates travel on the message bus (server/features/message-bus).
describe.runIf(hasFeature("message-bus"))("with the message bus", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  const change = (url: string, uri: string) =>
    postLegacy(url, undefined, {
      id: 1,
      method: "tools/call",
      params: { name: "change_resource", arguments: { uri } },
    });
  const subscribe = (session: string | undefined, uri: unknown, extra: Record<string, string> = {}) =>
    postLegacy(server.url, session, { id: 1, method: "resources/subscribe", params: { uri } }, extra);

  describe("the official 1.x client", () => {
    it("declares resources.subscribe, hears the URIs it subscribed to, and nothing more of one it unsubscribed from", async () => {
      const { client } = await officialLegacyClient(server.url, () => ({ action: "cancel" }), {});
      expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true });
      const heard = heardUpdates();
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
        heard.add(notification.params.uri),
      );
      expect(await client.subscribeResource({ uri: "fixture://about" })).toEqual({});
      expect(await client.subscribeResource({ uri: "fixture://items/1" })).toEqual({});
      await changeUntilHeard(heard, "fixture://about", () => change(server.url, "fixture://about"));
      await changeUntilHeard(heard, "fixture://items/1", () => change(server.url, "fixture://items/1"));

      expect(await client.unsubscribeResource({ uri: "fixture://items/1" })).toEqual({});
      const mark = heard.uris.length;
      await change(server.url, "fixture://items/1");
      // An update of the URI still subscribed to, announced after, arrives; none of the other in between.
      await changeUntilHeard(heard, "fixture://about", () => change(server.url, "fixture://about"));
      expect(heard.uris.slice(mark)).not.toContain("fixture://items/1");
      await client.close();
    });
  });

  describe("hostile cases", () => {
    it("subscribing without a session: -32600 saying a session is needed", async () => {
      const reply = await subscribe(undefined, "fixture://about");
      expect(reply.status).toBe(200);
      expect(reply.body!.error.code).toBe(-32600);
      expect(reply.body!.error.message).toMatch(/needs a session/);
    });

    it("a tampered session: 404, on POST and on GET", async () => {
      const session = (await initializeLegacy(server.url, {}))!;
      const tampered = session.slice(0, -2) + (session.endsWith("AA") ? "BB" : "AA");
      expect((await subscribe(tampered, "fixture://about")).status).toBe(404);
      const get = await openLegacyStream(server.url, tampered);
      expect(get.response.status).toBe(404);
      expect((await get.response.json()).error.code).toBe(-32600);
    });

    it("a URI this server does not serve, or not a string: -32602", async () => {
      const session = (await initializeLegacy(server.url, {}))!;
      for (const uri of ["fixture://nothing-here", 42, `fixture://items/${"x".repeat(3000)}`]) {
        const reply = await subscribe(session, uri);
        expect(reply.status).toBe(200);
        expect(reply.body!.error.code).toBe(-32602);
      }
    });

    it("at most 20 URIs per session: the 21st is -32602, an unsubscribe makes room", async () => {
      const session = (await initializeLegacy(server.url, {}))!;
      for (let item = 1; item <= 20; item++)
        expect((await subscribe(session, `fixture://items/${item}`)).body!.result).toEqual({});
      expect((await subscribe(session, "fixture://items/1")).body!.result).toEqual({}); // already there: no 21st
      const over = await subscribe(session, "fixture://items/21");
      expect(over.body!.error.code).toBe(-32602);
      expect(over.body!.error.message).toMatch(/at most 20/);
      expect(
        (
          await postLegacy(server.url, session, {
            id: 2,
            method: "resources/unsubscribe",
            params: { uri: "fixture://items/20" },
          })
        ).body!.result,
      ).toEqual({});
      expect((await subscribe(session, "fixture://items/21")).body!.result).toEqual({});
    });

    it("sessions cost nothing, so a caller's sessions that keep subscriptions are counted: past the limit 429, until one empties", async () => {
      const limited = await startServer({ env: { NITRO_MCP_LEGACY_SUBSCRIBED_SESSIONS: "2" } });
      onTestFinished(() => limited.stop());
      const subscribeOn = (session: string, uri: string, method = "resources/subscribe") =>
        postLegacy(limited.url, session, { id: 1, method, params: { uri } });
      const [first, second, third] = await Promise.all([1, 2, 3].map(() => initializeLegacy(limited.url, {})));
      // A session's first subscribes, made at once, take one slot between them.
      const firstUris = ["fixture://about", "fixture://items/1", "fixture://items/2", "fixture://items/3"];
      for (const reply of await Promise.all(firstUris.map((uri) => subscribeOn(first!, uri))))
        expect(reply.body!.result).toEqual({});
      expect((await subscribeOn(second!, "fixture://about")).body!.result).toEqual({});
      const refused = await subscribeOn(third!, "fixture://about");
      expect(refused.body!.error).toMatchObject({ code: 429, data: { limit: 2 } });
      expect(refused.body!.error.message).toMatch(/NITRO_MCP_LEGACY_SUBSCRIBED_SESSIONS/);
      // The second session unsubscribes from all it had, which gives its slot back.
      expect((await subscribeOn(second!, "fixture://about", "resources/unsubscribe")).body!.result).toEqual({});
      expect((await subscribeOn(third!, "fixture://about")).body!.result).toEqual({});
      expect((await subscribeOn(second!, "fixture://about")).body!.error.code).toBe(429);
    });

    it("GET without a session, or not asking for an event stream: 405 as before", async () => {
      const session = (await initializeLegacy(server.url, {}))!;
      expect((await openLegacyStream(server.url, undefined)).response.status).toBe(405);
      expect((await openLegacyStream(server.url, session, { accept: "application/json" })).response.status).toBe(405);
    });

    it("a raw GET stream carries the update as an SSE `message` event, and ends when the client goes", async () => {
      const session = (await initializeLegacy(server.url, {}))!;
      const { response, stream } = await openLegacyStream(server.url, session);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      expect(response.headers.get("cache-control")).toBe("no-cache, no-transform");
      const heard = heardUpdates();
      void (async () => {
        for (let message = await stream!.next(); message; message = await stream!.next()) heard.add(message.params.uri);
      })();
      expect((await subscribe(session, "fixture://about")).body!.result).toEqual({});
      await changeUntilHeard(heard, "fixture://about", () => change(server.url, "fixture://about"));
      await stream!.close();
    });
  });

  describe.runIf(hasFeature("sign-in"))("principals (static tokens)", () => {
    it("a session another principal presents on GET or POST: 404", async () => {
      const signedIn = await startServer({
        env: { NITRO_MCP_AUTH_TOKENS: "alice:alice-token-0123456789,bob:bob-token-0123456789" },
      });
      const as = (who: string) => ({ authorization: `Bearer ${who}-token-0123456789` });
      const alice = (await initializeLegacy(signedIn.url, {}, as("alice")))!;
      expect((await openLegacyStream(signedIn.url, alice, as("bob"))).response.status).toBe(404);
      expect(
        (
          await postLegacy(
            signedIn.url,
            alice,
            { id: 1, method: "resources/subscribe", params: { uri: "fixture://about" } },
            as("bob"),
          )
        ).status,
      ).toBe(404);
      expect((await openLegacyStream(signedIn.url, alice)).response.status).toBe(401);
      const own = await openLegacyStream(signedIn.url, alice, as("alice"));
      expect(own.response.status).toBe(200);
      await own.stream!.close();
      await signedIn.stop();
    });
  });
});
