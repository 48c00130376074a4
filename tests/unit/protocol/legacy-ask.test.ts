/**
 * Asking a 2025-era client, in-process (server/features/legacy/ask.ts, answers.ts), on the memory store and its bus, with
 * the raw client of tests/helpers/legacy.ts reading the call's stream as it comes: an answer far over the bus's message
 * bound is delivered; an answer that could not be published can be sent again; a request without `MCP-Protocol-Version`
 * is served in its session's version. Over real HTTP and across instances: tests/e2e/legacy-ask.test.ts,
 * tests/targets/legacy-ask-*.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../../helpers/in-process";
import {
  IMAGE_SAMPLING_ANSWER,
  ROOTS_ANSWER,
  answerLegacy,
  initializeLegacy,
  openLegacyCall,
  postLegacy,
  samplingAndRootsQuestions,
  type LegacyTarget,
} from "../../helpers/legacy";
import { hasFeature } from "../../helpers/project.mjs";
import { CONFIRM, FIXTURES, uniqueKey } from "./flows";

const SAMPLING_AND_ROOTS = { sampling: {}, roots: {} };

const inProcess = (server: TestServer): LegacyTarget => ({
  url: "http://localhost/mcp",
  fetch: (request) => server.stream(request),
});

// Asking 2025-era clients travels on the message bus (server/features/message-bus).
describe.runIf(hasFeature("message-bus"))("asking a 2025-era client, in-process", () => {
  let server: TestServer;
  let target: LegacyTarget;
  beforeAll(async () => {
    server = await createTestServer(FIXTURES);
    target = inProcess(server);
  });

  describe("answers of any size within the body limit", () => {
    it("a sampling answer with a ~100 KB image is accepted (202) and reaches the waiting call", async () => {
      const session = (await initializeLegacy(target, SAMPLING_AND_ROOTS))!;
      const call = await openLegacyCall(target, session, "ask_model_and_roots", {});
      const { sampling, roots } = await samplingAndRootsQuestions(call);
      const answered = await answerLegacy(target, session, sampling.id, IMAGE_SAMPLING_ANSWER);
      expect([answered.status, answered.text]).toEqual([202, ""]);
      expect((await answerLegacy(target, session, roots.id, ROOTS_ANSWER)).status).toBe(202);
      expect((await call.final())!.result.content).toEqual([
        { type: "text", text: "The model said (image); roots: file:///work/project." },
      ]);
    });

    it("an answer over what the stores keep (1 MiB of JSON; the body limit raised) gets 413, and a smaller one is still taken", async () => {
      const roomy = await createTestServer({ ...FIXTURES, env: { NITRO_MCP_MAX_BODY_BYTES: String(4 * 1024 * 1024) } });
      const on = inProcess(roomy);
      const session = (await initializeLegacy(on, SAMPLING_AND_ROOTS))!;
      const call = await openLegacyCall(on, session, "ask_model_and_roots", {});
      const { sampling, roots } = await samplingAndRootsQuestions(call);
      const huge = {
        ...IMAGE_SAMPLING_ANSWER,
        content: { ...IMAGE_SAMPLING_ANSWER.content, data: "A".repeat(1024 * 1024) },
      };
      const refused = await answerLegacy(on, session, sampling.id, huge);
      expect(refused.status).toBe(413);
      expect(refused.body).toEqual({
        jsonrpc: "2.0",
        error: { code: -32600, message: "This answer is larger than this server keeps (1048576 bytes of JSON)" },
      });
      expect((await answerLegacy(on, session, sampling.id, IMAGE_SAMPLING_ANSWER)).status).toBe(202);
      expect((await answerLegacy(on, session, roots.id, ROOTS_ANSWER)).status).toBe(202);
      expect((await call.final())!.result.content[0].text).toBe("The model said (image); roots: file:///work/project.");
    });

    it("an answer whose publication fails is not kept as given: 503, and the same answer sent again is taken", async () => {
      const faulty = await createTestServer(FIXTURES);
      // This server's own bus module (each test server loads its modules afresh): its publish fails once.
      const { setMessageBus, useMessageBus, useStore } = await import("../../../server/mcp/store");
      const bus = useMessageBus()!;
      const transport = useStore()!.ports.bus!;
      let failures = 0;
      // The same subscriptions (each now takes its caller's share twice, far below the share) on a transport that fails.
      setMessageBus(bus, {
        listen: (channel, deliver, lost) => transport.listen(channel, deliver, lost),
        publish: async (channel, message) => {
          if (failures-- > 0) throw new Error("the bus dropped the connection");
          return transport.publish(channel, message);
        },
      });
      const on = inProcess(faulty);
      const key = uniqueKey();
      const session = (await initializeLegacy(on, { elicitation: {} }))!;
      const call = await openLegacyCall(on, session, "confirm_increment", { key });
      const question = (await call.next())!;
      failures = 1;
      const failed = await answerLegacy(on, session, question.id, CONFIRM.confirm);
      expect([failed.status, failed.body]).toEqual([
        503,
        { jsonrpc: "2.0", error: { code: -32603, message: "Storage unavailable: try again shortly" } },
      ]);
      expect((await answerLegacy(on, session, question.id, CONFIRM.confirm)).status).toBe(202);
      expect((await call.final())!.result.content[0].text).toBe(`Counter ${key} is now 1.`);
      expect(faulty.logs()).not.toMatch(/"stack"/);
    });
  });

  describe("a request without MCP-Protocol-Version, presenting a session, is served in the session's version", () => {
    const HEADERLESS = { "mcp-protocol-version": undefined };

    it("2025-06-18: a form question is asked (no mode), and the client's answer acts", async () => {
      const key = uniqueKey();
      const session = (await initializeLegacy(target, { elicitation: {} }, HEADERLESS, "2025-06-18"))!;
      const call = await openLegacyCall(target, session, "confirm_increment", { key }, HEADERLESS);
      const question = (await call.next())!;
      expect(question).toMatchObject({
        method: "elicitation/create",
        params: { message: `Increment counter ${key}?` },
      });
      expect(question.params).not.toHaveProperty("mode");
      expect((await answerLegacy(target, session, question.id, CONFIRM.confirm, HEADERLESS)).status).toBe(202);
      expect((await call.final())!.result.content[0].text).toBe(`Counter ${key} is now 1.`);
    });

    it("2025-06-18: a question the client cannot answer is refused naming 2025-06-18, not 2025-03-26", async () => {
      const session = (await initializeLegacy(target, {}, HEADERLESS, "2025-06-18"))!;
      const call = await postLegacy(
        target,
        session,
        { id: 1, method: "tools/call", params: { name: "confirm_increment", arguments: { key: uniqueKey() } } },
        HEADERLESS,
      );
      expect(call.body!.result).toMatchObject({
        isError: true,
        content: [{ text: expect.stringMatching(/this client uses 2025-06-18\.$/) }],
      });
    });

    it("2025-11-25: a URL question the client cannot be asked is that revision's -32042, with the link", async () => {
      const session = (await initializeLegacy(target, { elicitation: { form: {} } }, HEADERLESS, "2025-11-25"))!;
      const call = await postLegacy(
        target,
        session,
        { id: 1, method: "tools/call", params: { name: "open_link", arguments: {} } },
        HEADERLESS,
      );
      expect(call.body!.error).toMatchObject({
        code: -32042,
        data: { elicitations: [expect.objectContaining({ mode: "url", url: "https://example.test/step" })] },
      });
    });

    it("without a session, it is still taken as 2025-03-26", async () => {
      const call = await postLegacy(
        target,
        undefined,
        { id: 1, method: "tools/call", params: { name: "confirm_increment", arguments: { key: uniqueKey() } } },
        HEADERLESS,
      );
      expect(call.body!.result.content[0].text).toMatch(/this client uses 2025-03-26\.$/);
    });
  });
});
