/**
 * One end-to-end suite, parameterised by how the server is started: the same MRTR flows,
 * tampering and error paths run against the Node build, the Cloudflare build in workerd,
 * and the Vercel output.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectModernClient } from "../helpers/clients";
import { post, standardHeaders } from "../helpers/rpc";
import type { RunningServer } from "../helpers/server.mjs";

const ELICITATION = { elicitation: { form: {} } };

export function describeTarget(name: string, start: () => Promise<RunningServer>) {
  describe(`${name}: the same endpoint, end to end`, () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await start();
    }, 90_000);
    afterAll(() => server?.stop());

    const call = (tool: string, args: object, extra: object = {}) =>
      post(server.url, "tools/call", { name: tool, arguments: args, ...extra }, { capabilities: ELICITATION });

    it("discovers, with server identity and caching hints", async () => {
      const { status, body } = await post(server.url, "server/discover", {});
      expect(status).toBe(200);
      expect(body.result).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number), cacheScope: "public" });
      expect(body.result._meta["io.modelcontextprotocol/serverInfo"].name).toBe("mcp-edge-template");
    });

    it("delete_note: asks, deletes on accept, refuses the same state twice", async () => {
      const first = await call("delete_note", { note_id: "7" });
      expect(first.body.result.resultType).toBe("input_required");
      const retry = () =>
        call("delete_note", { note_id: "7" }, {
          inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
          requestState: first.body.result.requestState,
        });
      expect((await retry()).body.result.content[0].text).toBe('Deleted note 7 ("Groceries").');
      expect((await retry()).body.error).toEqual({ code: -32602, message: "Invalid or expired requestState" });
      expect((await call("list_notes", {})).body.result.content[0].text).not.toContain("#7 ");
    });

    it("delete_note: decline keeps the note, as a normal result", async () => {
      const first = await call("delete_note", { note_id: "12" });
      const second = await call("delete_note", { note_id: "12" }, {
        inputResponses: { confirm: { action: "decline" } },
        requestState: first.body.result.requestState,
      });
      expect(second.body.result.isError).toBeUndefined();
      expect(second.body.result.content[0].text).toMatch(/^Kept note 12/);
    });

    it("wizard: three rounds with the state carried between them", async () => {
      let result = await call("wizard", {});
      for (const [key, content] of [["name", { name: "Io" }], ["color", { color: "blue" }], ["size", { size: 9 }]] as const) {
        expect(Object.keys(result.body.result.inputRequests)).toEqual([key]);
        result = await call("wizard", {}, { inputResponses: { [key]: { action: "accept", content } }, requestState: result.body.result.requestState });
      }
      expect(result.body.result.content[0].text).toBe("All set, Io: a blue one, size 9.");
    });

    it("rejects a tampered state with the opaque error", async () => {
      const first = await call("wizard", {});
      const tampered = await call("wizard", {}, {
        inputResponses: { name: { action: "accept", content: { name: "x" } } },
        requestState: `${first.body.result.requestState.slice(0, -2)}AA`,
      });
      expect(tampered.body.error).toEqual({ code: -32602, message: "Invalid or expired requestState" });
    });

    it("refuses to ask a client without elicitation (-32021, 400)", async () => {
      const result = await post(server.url, "tools/call", { name: "delete_note", arguments: { note_id: "15" } });
      expect(result.status).toBe(400);
      expect(result.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
    });

    it("streams progress as SSE", async () => {
      const result = await post(server.url, "tools/call", { name: "countdown", arguments: { from: 2, delay_ms: 5 } }, { metaExtra: { progressToken: "t" } });
      expect(result.type).toBe("text/event-stream");
      expect(result.messages.filter((message) => message.method === "notifications/progress")).toHaveLength(3);
      expect(result.body.result.content[0].text).toBe("Lift-off!");
    });

    it.each([
      ["missing _meta", () => post(server.url, "server/discover", {}, { noMeta: true }), 400, -32602],
      ["unknown method", () => post(server.url, "ping", {}), 404, -32601],
      ["header mismatch", () => post(server.url, "tools/list", {}, { headers: { "mcp-method": "prompts/list" } }), 400, -32020],
      ["unsupported version", () => post(server.url, "tools/list", {}, { headers: { "mcp-protocol-version": "v9" }, metaExtra: { "io.modelcontextprotocol/protocolVersion": "v9" } }), 400, -32022],
    ])("answers %s with the right status and code", async (_, send, status, code) => {
      const result = await send();
      expect(result.status).toBe(status);
      expect(result.body.error.code).toBe(code);
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
      const result = await client.callTool({ name: "delete_note", arguments: { note_id: "15" } });
      expect((result.content as { text: string }[])[0]!.text).toBe('Deleted note 15 ("Plant care").');
      await client.close();
    });
  });
}
