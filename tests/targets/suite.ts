/**
 * One end-to-end suite, parameterised by how the server is started: the same MRTR flows,
 * tampering and error paths run against each build (`tests/targets/<target>.test.ts`, each
 * built with the test fixtures).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectModernClient } from "../helpers/clients";
import {
  ELICITATION,
  askToIncrement,
  expectOpaqueRejection,
  readCounter,
  retryIncrement,
  uniqueKey,
} from "../helpers/flows";
import { post, standardHeaders } from "../helpers/rpc";
import type { RunningServer } from "../helpers/server.mjs";
import { PACKAGE } from "../helpers/project.mjs";

export function describeTarget(name: string, start: () => Promise<RunningServer>) {
  describe(`${name}: the same endpoint, end to end`, () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await start();
    }, 90_000);
    afterAll(() => server?.stop());

    it("discovers, with server identity and caching hints", async () => {
      const { status, body } = await post(server.url, "server/discover", {});
      expect(status).toBe(200);
      expect(body.result).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number), cacheScope: "public" });
      expect(body.result._meta["io.modelcontextprotocol/serverInfo"].name).toBe(PACKAGE.name);
    });

    it("confirm then act: asks, acts on accept, refuses the same state twice; the counter moved once", async () => {
      const key = uniqueKey();
      const state = await askToIncrement(server.url, key);
      expect((await retryIncrement(server.url, key, state)).body.result.content[0].text).toBe(
        `Counter ${key} is now 1.`,
      );
      expectOpaqueRejection(await retryIncrement(server.url, key, state));
      expect(await readCounter(server.url, key)).toBe(1);
    });

    it("decline does not act, and is a normal result", async () => {
      const key = uniqueKey();
      const second = await retryIncrement(server.url, key, await askToIncrement(server.url, key), {
        answers: { confirm: { action: "decline" } },
      });
      expect(second.body.result.isError).toBeUndefined();
      expect(second.body.result.content[0].text).toBe(`Counter ${key} unchanged: decline.`);
      expect(await readCounter(server.url, key)).toBe(0);
    });

    it("three rounds with the state carried between them", async () => {
      const ask = (extra: object = {}) =>
        post(
          server.url,
          "tools/call",
          { name: "three_questions", arguments: {}, ...extra },
          { capabilities: ELICITATION },
        );
      let result = await ask();
      for (const [key, content] of [
        ["word", { word: "Io" }],
        ["color", { color: "blue" }],
        ["size", { size: 9 }],
      ] as const) {
        expect(Object.keys(result.body.result.inputRequests)).toEqual([key]);
        result = await ask({
          inputResponses: { [key]: { action: "accept", content } },
          requestState: result.body.result.requestState,
        });
      }
      expect(result.body.result.content[0].text).toBe("Io, blue, 9.");
    });

    it("rejects a tampered state with the opaque error", async () => {
      const key = uniqueKey();
      const state = await askToIncrement(server.url, key);
      // One character of the tag changed, whatever it was: a state that already ended in the replacement would open.
      const at = state.length - 10;
      expectOpaqueRejection(
        await retryIncrement(
          server.url,
          key,
          `${state.slice(0, at)}${state[at] === "A" ? "B" : "A"}${state.slice(at + 1)}`,
        ),
      );
      expect(await readCounter(server.url, key)).toBe(0);
    });

    it("refuses to ask a client without elicitation (-32021, 400)", async () => {
      const result = await post(server.url, "tools/call", {
        name: "confirm_increment",
        arguments: { key: uniqueKey() },
      });
      expect(result.status).toBe(400);
      expect(result.body.error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { elicitation: { form: {} } } },
      });
    });

    it("streams progress as SSE", async () => {
      const result = await post(
        server.url,
        "tools/call",
        { name: "progress_steps", arguments: { steps: 2, delay_ms: 5 } },
        { metaExtra: { progressToken: "t" } },
      );
      expect(result.type).toBe("text/event-stream");
      expect(result.messages.filter((message) => message.method === "notifications/progress")).toHaveLength(3);
      expect(result.body.result.content[0].text).toBe("done");
    });

    it.each([
      ["missing _meta", () => post(server.url, "server/discover", {}, { noMeta: true }), 400, -32602],
      ["unknown method", () => post(server.url, "ping", {}), 404, -32601],
      [
        "header mismatch",
        () => post(server.url, "tools/list", {}, { headers: { "mcp-method": "prompts/list" } }),
        400,
        -32020,
      ],
      [
        "unsupported version",
        () =>
          post(
            server.url,
            "tools/list",
            {},
            {
              headers: { "mcp-protocol-version": "v9" },
              metaExtra: { "io.modelcontextprotocol/protocolVersion": "v9" },
            },
          ),
        400,
        -32022,
      ],
    ])("answers %s with the right status and code", async (_, send, status, code) => {
      const result = await send();
      expect(result.status).toBe(status);
      expect(result.body.error.code).toBe(code);
    });

    it("refuses a body over the limit with 413, declared or streamed, and goes on answering", async () => {
      const oversized = "x".repeat(1_100_000);
      const declared = await fetch(server.url, {
        method: "POST",
        headers: standardHeaders("tools/list"),
        body: oversized,
      });
      expect(declared.status).toBe(413);
      expect((await declared.json()).error.code).toBe(-32600);
      const chunks = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 11; i++) controller.enqueue(new TextEncoder().encode(oversized.slice(0, 100_000)));
          controller.close();
        },
      });
      const streamed = await fetch(server.url, {
        method: "POST",
        headers: standardHeaders("tools/list"),
        body: chunks,
        duplex: "half",
      } as RequestInit);
      expect(streamed.status).toBe(413);
      expect((await post(server.url, "server/discover", {})).status).toBe(200);
    });

    it("answers bad JSON with 400/-32700 and GET with 405", async () => {
      const bad = await fetch(server.url, { method: "POST", headers: standardHeaders("tools/list"), body: "{" });
      expect(bad.status).toBe(400);
      expect((await bad.json()).error.code).toBe(-32700);
      const get = await fetch(server.url);
      expect(get.status).toBe(405);
      expect(get.headers.get("allow")).toBe("POST");
    });

    it("works with the official client, which answers the confirmation itself", async () => {
      const client = await connectModernClient(server.url, { capabilities: ELICITATION });
      client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { confirm: true } }));
      const key = uniqueKey();
      const result = await client.callTool({ name: "confirm_increment", arguments: { key } });
      expect((result.content as { text: string }[])[0]!.text).toBe(`Counter ${key} is now 1.`);
      await client.close();
    });
  });
}
