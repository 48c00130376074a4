/**
 * 2025-era streams and questions count against their caller's fair shares (server/mcp/README.md, "Security"), in-process,
 * callers told apart by `X-Forwarded-For` through one trusted proxy: a caller at its share of subscriptions is told so
 * (429) while another caller is still asked its question; a GET stream counts against the rate limit and the share of
 * open streams. The shares themselves: fair-shares.test.ts.
 */
import { describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../../helpers/in-process";
import { initializeLegacy, openLegacyCall, openLegacyStream } from "../../helpers/legacy";
import { hasFeature } from "../../helpers/project.mjs";
import { openListen } from "../../helpers/rpc";
import { FIXTURES, uniqueKey } from "./flows";

const LIMIT_EXCEEDED = 429;
const from = (address: string) => ({ "x-forwarded-for": address });

const listen = (server: TestServer, uris: string[], address: string) =>
  openListen(
    (request) => server.stream(request),
    "http://localhost/mcp",
    { resourceSubscriptions: uris },
    from(address),
  );

describe.runIf(hasFeature("message-bus"))("2025-era streams and questions, by caller", () => {
  const LEGACY = "2025-11-25";
  const target = (server: TestServer) => ({
    url: "http://localhost/mcp",
    fetch: (request: Request) => server.stream(request),
  });

  it("still asks another caller's question while one caller holds its whole share of subscriptions", async () => {
    const server = await createTestServer({
      ...FIXTURES,
      env: { NITRO_MCP_TRUST_PROXY: "1", NITRO_MCP_CALLER_SUBSCRIPTIONS: "2" },
    });
    const held = await listen(server, ["fixture://items/1", "fixture://items/2"], "192.0.2.1");
    expect(held.first?.params.notifications.resourceSubscriptions).toHaveLength(2);
    const ask = async (address: string) => {
      const session = await initializeLegacy(target(server), { elicitation: {} }, from(address), LEGACY);
      return openLegacyCall(target(server), session, "confirm_increment", { key: uniqueKey() }, from(address));
    };
    // The caller at its share is told so, with the limit, rather than answered -32603.
    const refused = await (await ask("192.0.2.1")).final();
    expect(refused?.error).toMatchObject({ code: LIMIT_EXCEEDED, data: { share: "subscriptions", limit: 2 } });
    const other = await ask("192.0.2.2");
    const question = await other.next();
    expect(question).toMatchObject({ method: "elicitation/create" });
    await held.stream.close();
  });

  it.runIf(hasFeature("rate-limit"))(
    "counts a GET stream against the rate limit and against the caller's share of streams",
    async () => {
      const server = await createTestServer({
        ...FIXTURES,
        env: {
          NITRO_MCP_TRUST_PROXY: "1",
          NITRO_MCP_CALLER_STREAMS: "1",
          NITRO_MCP_RATE_LIMIT: "100/1h",
          NITRO_MCP_RATE_LIMIT_CONNECT: "3/1h",
        },
      });
      const session = await initializeLegacy(target(server), {}, from("192.0.2.1"), LEGACY);
      const first = await openLegacyStream(target(server), session, from("192.0.2.1"));
      expect(first.response.status).toBe(200);
      const second = await openLegacyStream(target(server), session, from("192.0.2.1"));
      expect(second.response.status).toBe(429);
      expect(await second.response.json()).toMatchObject({
        error: { code: LIMIT_EXCEEDED, data: { share: "streams" } },
      });
      // The budget to connect (3) is spent: initialize and the two GETs, which a 2025-era host opens as it connects.
      const over = await openLegacyStream(target(server), session, from("192.0.2.1"));
      expect(over.response.status).toBe(429);
      expect((await over.response.json()).error.message).toMatch(/^Rate limit exceeded \(requests to connect\)/);
      await first.stream?.close();
    },
  );
});

describe.runIf(hasFeature("message-bus"))(
  "2025-era streams end by the stream deadline (NITRO_MCP_STREAM_SECONDS)",
  () => {
    it("ends a GET stream of resource updates, and a question left unanswered, within the deadline", async () => {
      const server = await createTestServer({ ...FIXTURES, env: { NITRO_MCP_STREAM_SECONDS: "1" } });
      const local = { url: "http://localhost/mcp", fetch: (request: Request) => server.stream(request) };
      const session = await initializeLegacy(local, { elicitation: {} }, {}, "2025-11-25");
      const stream = await openLegacyStream(local, session);
      expect(stream.response.status).toBe(200);
      // The stream ends by itself: the reader sees its end rather than waiting for ever.
      expect(await stream.stream?.next()).toBeUndefined();
      const call = await openLegacyCall(local, session, "confirm_increment", { key: uniqueKey() });
      expect(await call.next()).toMatchObject({ method: "elicitation/create" });
      const final = await call.final();
      expect(final?.result).toMatchObject({ isError: true });
      expect(final?.result.content[0].text).toMatch(/did not answer/);
    });
  },
);
