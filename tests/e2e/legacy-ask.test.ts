/**
 * Asking 2025-era clients (server/features/legacy/ask.ts, answers.ts, session.ts) against the Node build, over real
 * HTTP: the official 1.x client with elicitation, sampling and roots handlers, then a raw client for what the official
 * one will not do (answers to ids that do not exist, another principal's, late, repeated, floods; sessions tampered).
 * The fixture build runs on the memory store, whose message bus serves this one process.
 */
import { ElicitationCompleteNotificationSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueKey } from "../helpers/flows";
import {
  ALL_CAPABILITIES as CAPABILITIES,
  IMAGE_SAMPLING_ANSWER,
  ROOTS_ANSWER,
  answerLegacy,
  fillFirstField,
  initializeLegacy,
  officialLegacyClient,
  openLegacyCall,
  postLegacy,
  samplingAndRootsQuestions,
} from "../helpers/legacy";
import { startServer, type RunningServer } from "../helpers/server.mjs";
import { hasFeature } from "../helpers/project.mjs";

// Asking 2025-era clients and their resource updates travel on the message bus (server/features/message-bus).
describe.runIf(hasFeature("message-bus"))("with the message bus", () => {
  const CONFIRM = { action: "accept", content: { confirm: true } };
  const NOT_ACCEPTED = {
    jsonrpc: "2.0",
    error: { code: -32600, message: "This response answers no pending request of this session" },
  };
  const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  const officialClient = (
    answer: (params: Record<string, any>) => ElicitResult,
    capabilities?: Record<string, object>,
  ) => officialLegacyClient(server.url, answer, capabilities);

  /** The counter a fixture tool acts on, read through the server. */
  async function counter(key: string): Promise<number> {
    const read = await postLegacy(server.url, undefined, {
      id: 1,
      method: "tools/call",
      params: { name: "read_counter", arguments: { key } },
    });
    return read.body!.result.structuredContent.value;
  }

  describe("the official 1.x client, asked on its POST's stream", () => {
    it("gets a sealed session from initialize", async () => {
      const { client, transport } = await officialClient(() => ({ action: "cancel" }));
      expect(transport.sessionId).toMatch(/^v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+$/);
      await client.close();
    });

    it("a single-use confirmation: accept acts once, decline does nothing", async () => {
      const [yes, no] = [uniqueKey(), uniqueKey()];
      const { client, asked } = await officialClient((params) =>
        params.message.includes(yes) ? (CONFIRM as ElicitResult) : { action: "decline" },
      );
      expect(text(await client.callTool({ name: "confirm_increment", arguments: { key: yes } }))).toBe(
        `Counter ${yes} is now 1.`,
      );
      expect(text(await client.callTool({ name: "confirm_increment", arguments: { key: no } }))).toBe(
        `Counter ${no} unchanged: decline.`,
      );
      expect(asked.map((params) => params.mode)).toEqual(["form", "form"]);
      expect([await counter(yes), await counter(no)]).toEqual([1, 0]);
      await client.close();
    });

    it("three rounds, one question each, earlier answers carried in the sealed state", async () => {
      const { client, asked } = await officialClient(fillFirstField({ word: "kite", color: "green", size: 4 }));
      expect(text(await client.callTool({ name: "three_questions", arguments: {} }))).toBe("kite, green, 4.");
      expect(asked.map((params) => params.message)).toEqual([
        "Question 1: a word?",
        "Question 2: a colour for kite?",
        "Question 3: a size?",
      ]);
      await client.close();
    });

    it("a sampling request and a roots request, in one round", async () => {
      const { client } = await officialClient(() => ({ action: "cancel" }));
      const result = await client.callTool({ name: "ask_model_and_roots", arguments: {} });
      expect(text(result)).toBe("The model said hello; roots: file:///work/project.");
      await client.close();
    });

    it("a handler that degrades for a client that cannot be asked (canRequestInput) asks one that can", async () => {
      const { client, asked } = await officialClient(() => ({ action: "accept", content: { format: "json" } }));
      const read = await client.readResource({ uri: "fixture://asks" });
      expect(read.contents[0]).toMatchObject({ text: '{"format":"json"}' });
      expect(asked.map((params) => params.message)).toEqual(["Text or JSON?"]);
      await client.close();
      const { client: formless, asked: none } = await officialClient(() => ({ action: "cancel" }), {});
      expect((await formless.readResource({ uri: "fixture://asks" })).contents[0]).toMatchObject({
        text: "plain (not asked)",
      });
      expect(none).toEqual([]);
      await formless.close();
      // Without a session, nothing it declared is known: the handler degrades.
      const sessionless = await postLegacy(server.url, undefined, {
        id: 2,
        method: "resources/read",
        params: { uri: "fixture://asks" },
      });
      expect(sessionless.body!.result.contents[0].text).toBe("plain (not asked)");
    });

    it("a prompt asks the same way", async () => {
      const { client } = await officialClient(() => ({ action: "accept", content: { topic: "tea", tone: "formal" } }));
      const prompt = await client.getPrompt({ name: "asking_prompt" });
      expect(prompt.messages[0]!.content).toMatchObject({ type: "text", text: "A formal text about tea." });
      await client.close();
    });

    it("URL mode on 2025-11-25: elicitation/create with mode url and an elicitationId, then notifications/elicitation/complete", async () => {
      const { client, asked } = await officialClient(() => ({ action: "accept" }));
      const completed: string[] = [];
      client.setNotificationHandler(
        ElicitationCompleteNotificationSchema,
        (notification) => void completed.push(notification.params.elicitationId),
      );
      expect(text(await client.callTool({ name: "open_link", arguments: {} }))).toBe("You chose accept.");
      expect(asked[0]).toMatchObject({
        mode: "url",
        url: "https://example.test/step",
        elicitationId: expect.any(String),
      });
      await expect.poll(() => completed).toEqual([asked[0]!.elicitationId]);
      await client.close();
    });

    it("without the capability, behaves as before: the tool refuses to act", async () => {
      const { client } = await officialClient(() => CONFIRM as ElicitResult, { sampling: {} });
      const key = uniqueKey();
      const result = await client.callTool({ name: "confirm_increment", arguments: { key } });
      expect(result.isError).toBe(true);
      expect(text(result)).toBe(
        "This tool needs to ask you something first (elicitation (form), needed to ask for confirm), which this client " +
          "did not declare when it connected: it takes a client that declares it, or one that supports protocol " +
          "2026-07-28; this client uses 2025-11-25.",
      );
      expect(await counter(key)).toBe(0);
      await client.close();
    });
  });

  describe("notifications/elicitation/complete (2025-11-25)", () => {
    /** Every message of an `open_link` call whose URL question is answered with `action`. */
    async function openLink(action: string) {
      const session = (await initializeLegacy(server.url, CAPABILITIES))!;
      const call = await openLegacyCall(server.url, session, "open_link", {});
      const question = (await call.next())!;
      expect(question).toMatchObject({
        method: "elicitation/create",
        params: { mode: "url", elicitationId: expect.any(String) },
      });
      expect((await answerLegacy(server.url, session, question.id, { action })).status).toBe(202);
      const rest = [];
      for (let message = await call.next(); message; message = await call.next()) rest.push(message);
      return { elicitationId: question.params.elicitationId as string, rest };
    }

    it("follows an accepted URL question the handler does not ask again, on the same stream, before the result", async () => {
      const { elicitationId, rest } = await openLink("accept");
      expect(rest).toEqual([
        { jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId } },
        expect.objectContaining({
          result: expect.objectContaining({ content: [{ type: "text", text: "You chose accept." }] }),
        }),
      ]);
    });

    it("is not sent for a URL question the handler asks again; the accepted second one is", async () => {
      const session = (await initializeLegacy(server.url, CAPABILITIES))!;
      const call = await openLegacyCall(server.url, session, "open_link_twice", {});
      const first = (await call.next())!;
      expect((await answerLegacy(server.url, session, first.id, { action: "accept" })).status).toBe(202);
      const second = (await call.next())!;
      expect(second).toMatchObject({
        method: "elicitation/create",
        params: { mode: "url", message: "Open this page (visit 2 of 2)." },
      });
      expect(second.params.elicitationId).not.toBe(first.params.elicitationId);
      expect((await answerLegacy(server.url, session, second.id, { action: "accept" })).status).toBe(202);
      expect(await call.next()).toEqual({
        jsonrpc: "2.0",
        method: "notifications/elicitation/complete",
        params: { elicitationId: second.params.elicitationId },
      });
      expect((await call.final())!.result.content).toEqual([{ type: "text", text: "Visited twice." }]);
    });

    it("is not sent when the URL question was declined: nothing was started out of band", async () => {
      const { rest } = await openLink("decline");
      expect(rest).toEqual([
        expect.objectContaining({
          result: expect.objectContaining({ content: [{ type: "text", text: "You chose decline." }] }),
        }),
      ]);
    });
  });

  describe("large answers", () => {
    it("a sampling answer with a ~100 KB image (over the bus's 64 KB message bound) is taken, and the call completes", async () => {
      const session = (await initializeLegacy(server.url, { sampling: {}, roots: {} }))!;
      const call = await openLegacyCall(server.url, session, "ask_model_and_roots", {});
      const { sampling, roots } = await samplingAndRootsQuestions(call);
      expect((await answerLegacy(server.url, session, sampling.id, IMAGE_SAMPLING_ANSWER)).status).toBe(202);
      expect((await answerLegacy(server.url, session, roots.id, ROOTS_ANSWER)).status).toBe(202);
      expect((await call.final())!.result.content[0].text).toBe("The model said (image); roots: file:///work/project.");
    });
  });

  describe("2025-06-18", () => {
    it("a form question without mode, answered the same way; URL mode is not asked", async () => {
      const version = { "mcp-protocol-version": "2025-06-18" };
      const key = uniqueKey();
      const session = (await initializeLegacy(server.url, { elicitation: {} }, version, "2025-06-18"))!;
      const call = await openLegacyCall(server.url, session, "confirm_increment", { key }, version);
      const question = (await call.next())!;
      expect(question).toMatchObject({
        method: "elicitation/create",
        params: { message: `Increment counter ${key}?` },
      });
      expect(question.params).not.toHaveProperty("mode");
      expect((await answerLegacy(server.url, session, question.id, CONFIRM, version)).status).toBe(202);
      expect((await call.final())!.result.content[0].text).toBe(`Counter ${key} is now 1.`);
      const link = await (await openLegacyCall(server.url, session, "open_link", {}, version)).final();
      expect(link!.result).toMatchObject({
        isError: true,
        content: [
          {
            // 2025-06-18 has no URL mode to declare: only a newer client can be asked.
            text: expect.stringMatching(
              /requires an MCP client that supports protocol 2026-07-28; this client uses 2025-06-18\.$/,
            ),
          },
        ],
      });
    });

    it("without MCP-Protocol-Version after initialize (as Gemini CLI sends), a request is served as its session's 2025-06-18", async () => {
      const headerless = { "mcp-protocol-version": undefined };
      const key = uniqueKey();
      const session = (await initializeLegacy(server.url, { elicitation: {} }, headerless, "2025-06-18"))!;
      const call = await openLegacyCall(server.url, session, "confirm_increment", { key }, headerless);
      const question = (await call.next())!;
      expect(question).toMatchObject({
        method: "elicitation/create",
        params: { message: `Increment counter ${key}?` },
      });
      expect(question.params).not.toHaveProperty("mode");
      expect((await answerLegacy(server.url, session, question.id, CONFIRM, headerless)).status).toBe(202);
      expect((await call.final())!.result.content[0].text).toBe(`Counter ${key} is now 1.`);
      // What it cannot be asked is refused naming the session's version, not 2025-03-26 (a request with no session).
      const link = await (await openLegacyCall(server.url, session, "open_link", {}, headerless)).final();
      expect(link!.result.content[0].text).toMatch(/this client uses 2025-06-18\.$/);
      const sessionless = await (await openLegacyCall(server.url, undefined, "open_link", {}, headerless)).final();
      expect(sessionless!.result.content[0].text).toMatch(
        /requires an MCP client that supports protocol 2026-07-28; this client uses 2025-03-26\.$/,
      );
    });
  });

  describe("sessions", () => {
    it("a request without a session is served as before", async () => {
      const key = uniqueKey();
      const call = await openLegacyCall(server.url, undefined, "confirm_increment", { key });
      const final = await call.final();
      expect(final!.result.isError).toBe(true);
      expect(final!.result.content[0].text).toMatch(/requires an MCP client that supports protocol 2026-07-28/);
    });

    it("a tampered session gets 404, for a request, a notification and a response", async () => {
      const session = (await initializeLegacy(server.url, CAPABILITIES))!;
      const tampered = `${session.slice(0, -2)}${session.endsWith("A") ? "B" : "A"}`;
      const request = await postLegacy(server.url, tampered, { id: 1, method: "tools/list" });
      expect(request.status).toBe(404);
      expect(request.body).toMatchObject({ error: { code: -32600 } });
      expect((await postLegacy(server.url, tampered, { method: "notifications/initialized" })).status).toBe(404);
      expect((await answerLegacy(server.url, tampered, "x", {})).status).toBe(404);
      expect((await postLegacy(server.url, session, { id: 2, method: "tools/list" })).status).toBe(200);
    });

    it("DELETE with a session is 405 (this server does not end sessions), and the session still works", async () => {
      const session = (await initializeLegacy(server.url, CAPABILITIES))!;
      const response = await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": session } });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect((await postLegacy(server.url, session, { id: 1, method: "ping" })).body).toMatchObject({ result: {} });
    });
  });

  describe("answers the server cannot take, each refused with 400 and delivered nowhere", () => {
    /** A session and a call waiting on its first question. */
    async function waitingCall() {
      const args = { key: uniqueKey() };
      const session = (await initializeLegacy(server.url, CAPABILITIES))!;
      const call = await openLegacyCall(server.url, session, "confirm_increment", args);
      const question = (await call.next())!;
      expect(question).toMatchObject({
        jsonrpc: "2.0",
        method: "elicitation/create",
        id: expect.stringMatching(/^v1\./),
      });
      return { session, call, question, args };
    }

    it("an id that was never issued: a number, a string, a forged token, another session's", async () => {
      const { session, call, question, args } = await waitingCall();
      const other = (await initializeLegacy(server.url, CAPABILITIES))!;
      const forged = `${question.id.slice(0, -2)}${question.id.endsWith("A") ? "B" : "A"}`;
      for (const [id, on] of [
        [7, session],
        ["nope", session],
        [forged, session],
        [question.id, other],
      ] as const) {
        const refused = await answerLegacy(server.url, on, id, CONFIRM);
        expect([refused.status, refused.body]).toEqual([400, NOT_ACCEPTED]);
      }
      // The question is still open: the real answer is taken, and acts once.
      expect((await answerLegacy(server.url, session, question.id, CONFIRM)).status).toBe(202);
      expect((await call.final())!.result.content[0].text).toBe(`Counter ${args.key} is now 1.`);
    });

    it("the same answer twice: the second is refused, and the tool acts once", async () => {
      const { session, call, question, args } = await waitingCall();
      expect((await answerLegacy(server.url, session, question.id, CONFIRM)).status).toBe(202);
      expect((await answerLegacy(server.url, session, question.id, CONFIRM)).status).toBe(400);
      expect((await call.final())!.result.content[0].text).toBe(`Counter ${args.key} is now 1.`);
      expect(await counter(args.key)).toBe(1);
    });

    it("exactly once: 50 concurrent answers to one single-use question → one 202, 49 refusals, the counter moved by one", async () => {
      const { session, call, question, args } = await waitingCall();
      const statuses = await Promise.all(
        Array.from({ length: 50 }, () => answerLegacy(server.url, session, question.id, CONFIRM).then((r) => r.status)),
      );
      expect(statuses.filter((status) => status === 202)).toHaveLength(1);
      expect(statuses.filter((status) => status === 400)).toHaveLength(49);
      expect((await call.final())!.result.content[0].text).toBe(`Counter ${args.key} is now 1.`);
      expect(await counter(args.key)).toBe(1);
    });

    it("notifications/cancelled for the call ends the wait and its stream without a result; nothing is done", async () => {
      const { session, call, question, args } = await waitingCall();
      const cancelled = await postLegacy(server.url, session, {
        method: "notifications/cancelled",
        params: { requestId: call.id, reason: "changed my mind" },
      });
      expect(cancelled.status).toBe(202);
      expect(await call.final()).toBeUndefined();
      // Nobody waits any more: the answer is refused, though its id is still good (nothing is kept), and acts on nothing.
      expect((await answerLegacy(server.url, session, question.id, CONFIRM)).status).toBe(400);
      expect(await counter(args.key)).toBe(0);
    });

    it("a flood of 300 bad answers is refused one by one, and the waiting call still completes", async () => {
      const { session, call, question, args } = await waitingCall();
      const flood = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          answerLegacy(server.url, session, i % 2 ? `v1.AAAAAAAA.${"A".repeat(i + 40)}` : i, CONFIRM).then(
            (r) => r.status,
          ),
        ),
      );
      expect(new Set(flood)).toEqual(new Set([400]));
      expect((await answerLegacy(server.url, session, question.id, CONFIRM)).status).toBe(202);
      expect((await call.final())!.result.content[0].text).toBe(`Counter ${args.key} is now 1.`);
    });

    it("a response without a session, or not answering anything, is refused as before (400, -32600)", async () => {
      const bare = await answerLegacy(server.url, undefined, "x", {});
      expect(bare.status).toBe(400);
      expect(bare.body).toMatchObject({ error: { code: -32600 } });
      const session = (await initializeLegacy(server.url, CAPABILITIES))!;
      const neither = await postLegacy(server.url, session, { id: 5 });
      expect([neither.status, neither.body!.error.code]).toEqual([400, -32600]);
    });
  });

  describe("limits", () => {
    it("a round not answered in time ends the call (isError), and an answer after that is refused", async () => {
      const quick = await startServer({ env: { NITRO_MCP_LEGACY_ASK_TIMEOUT_SECONDS: "1" } });
      const key = uniqueKey();
      const session = (await initializeLegacy(quick.url, CAPABILITIES))!;
      const call = await openLegacyCall(quick.url, session, "confirm_increment", { key });
      const question = (await call.next())!;
      const final = (await call.final())!;
      expect(final.result).toMatchObject({
        isError: true,
        content: [{ text: "The client did not answer within 1 s." }],
      });
      expect((await answerLegacy(quick.url, session, question.id, CONFIRM)).status).toBe(400);
      await quick.stop();
    });

    it("a request that keeps asking stops after the round limit", async () => {
      const short = await startServer({ env: { NITRO_MCP_LEGACY_ASK_MAX_ROUNDS: "2" } });
      const session = (await initializeLegacy(short.url, CAPABILITIES))!;
      const call = await openLegacyCall(short.url, session, "three_questions", {});
      for (const content of [{ word: "kite" }, { color: "red" }]) {
        const question = (await call.next())!;
        expect((await answerLegacy(short.url, session, question.id, { action: "accept", content })).status).toBe(202);
      }
      expect((await call.final())!.result).toMatchObject({
        isError: true,
        content: [{ text: "This request asked more than 2 rounds of questions without finishing." }],
      });
      await short.stop();
    });
  });

  describe.runIf(hasFeature("sign-in"))("principals (static tokens)", () => {
    it("another principal can neither use the session nor answer its questions", async () => {
      const signedIn = await startServer({
        env: { NITRO_MCP_AUTH_TOKENS: "alice:alice-token-0123456789,bob:bob-token-0123456789" },
      });
      const as = (who: string) => ({ authorization: `Bearer ${who}-token-0123456789` });
      const key = uniqueKey();
      const alice = (await initializeLegacy(signedIn.url, CAPABILITIES, as("alice")))!;
      const bob = (await initializeLegacy(signedIn.url, CAPABILITIES, as("bob")))!;
      const call = await openLegacyCall(signedIn.url, alice, "confirm_increment", { key }, as("alice"));
      const question = (await call.next())!;
      expect((await answerLegacy(signedIn.url, alice, question.id, CONFIRM, as("bob"))).status).toBe(404);
      expect((await answerLegacy(signedIn.url, bob, question.id, CONFIRM, as("bob"))).status).toBe(400);
      expect((await answerLegacy(signedIn.url, alice, question.id, CONFIRM, as("alice"))).status).toBe(202);
      expect((await call.final())!.result.content[0].text).toBe(`Counter ${key} is now 1.`);
      await signedIn.stop();
    });
  });
});
