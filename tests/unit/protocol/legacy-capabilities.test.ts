/**
 * What a 2025-era client declared at `initialize`, as handlers see it on every later request of its session
 * (`mcp.clientCapabilities`, server/features/legacy/kept-capabilities.ts), in-process: a resource that checks
 * `canRequestInput` asks a client that declared form elicitation and degrades for one that did not, reading each
 * declaration as a 2026-07-28 request's `_meta` is read; a hostile declaration still initializes, with a session id of
 * bounded length. Whether it renders UIs (the apps feature): tests/unit/protocol/apps.test.ts.
 */
import { isInputRequiredResult } from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type Json, type TestServer } from "../../helpers/in-process";
import { answerLegacy, initializeLegacy, openLegacyRequest, postLegacy, type LegacyTarget } from "../../helpers/legacy";
import { hasFeature } from "../../helpers/project.mjs";
import { FIXTURES } from "./flows";

const ASKS = "fixture://asks";
const NOT_ASKED = "plain (not asked)";
/** The longest Mcp-Session-Id an anonymous caller gets, whatever it declares (the bound in the legacy README). */
const SESSION_ID_BOUND = 2048;

let server: TestServer;
let target: LegacyTarget;
beforeAll(async () => {
  server = await createTestServer(FIXTURES);
  target = { url: "http://localhost/mcp", fetch: (request) => server.stream(request) };
});

/** `fixture://asks` read on a session of a client that declared `capabilities`: asked (its question's message), or its text. */
async function readAsks(capabilities: Json, version?: string): Promise<{ asked: string } | { text: string }> {
  const session = await initializeLegacy(target, capabilities, {}, version);
  const headers = version ? { "mcp-protocol-version": version } : {};
  const read = await openLegacyRequest(target, session, "resources/read", { uri: ASKS }, headers);
  const first = (await read.next())!;
  if (first.method !== "elicitation/create") return { text: first.result.contents[0].text };
  // Answered, so the call ends now rather than at the round's deadline.
  expect((await answerLegacy(target, session, first.id, { action: "decline" }, headers)).status).toBe(202);
  expect((await read.final())!.result.contents[0].text).toBe("plain");
  return { asked: first.params.message };
}

/** The same read by a 2026-07-28 client declaring `capabilities` in `_meta`: asked, or its text. */
async function readAsksModern(capabilities: Json): Promise<{ asked: string } | { text: string }> {
  const result = await server.connect({ capabilities }).readResource(ASKS, { stopAtInputRequired: true });
  if (isInputRequiredResult(result)) return { asked: (result.inputRequests as Json).format.params.message };
  return { text: (result.contents[0] as Json).text };
}

// Asking 2025-era clients travels on the message bus (server/features/message-bus): without it none can be asked.
describe.runIf(hasFeature("message-bus"))("canRequestInput on a 2025-era session", () => {
  it("is true for a client that declared form elicitation at initialize: the resource asks, and reads the answer", async () => {
    expect(await readAsks({ elicitation: { form: {} } })).toEqual({ asked: "Text or JSON?" });
    const session = await initializeLegacy(target, { elicitation: { form: {} } });
    const read = await openLegacyRequest(target, session, "resources/read", { uri: ASKS });
    const question = (await read.next())!;
    const answer = { action: "accept", content: { format: "json" } };
    expect((await answerLegacy(target, session, question.id, answer)).status).toBe(202);
    expect((await read.final())!.result.contents).toEqual([{ uri: ASKS, text: '{"format":"json"}' }]);
  });

  it("is true on 2025-06-18, whose elicitation has no modes", async () => {
    expect(await readAsks({ elicitation: {} }, "2025-06-18")).toEqual({ asked: "Text or JSON?" });
  });

  it("is false on 2025-03-26, which has no elicitation, whatever the client declared", async () => {
    expect(await readAsks({ elicitation: { form: {} } }, "2025-03-26")).toEqual({ text: NOT_ASKED });
  });

  it.each([
    ["nothing", {}],
    ["elicitation: {}", { elicitation: {} }],
    ["form", { elicitation: { form: {} } }],
    ["form and URL", { elicitation: { form: {}, url: {} } }],
    ["URL only", { elicitation: { url: {} } }],
    ["form that is not an object", { elicitation: { form: "yes" } }],
    ["form that is null, and URL", { elicitation: { form: null, url: {} } }],
    ["elicitation that is not an object", { elicitation: true }],
    ["elicitation as a list", { elicitation: ["form"] }],
    ["sampling and roots only", { sampling: {}, roots: {} }],
    ["form under experimental", { experimental: { elicitation: { form: {} } } }],
  ])("reads %s at initialize as a 2026-07-28 request reads it in _meta", async (_, capabilities) => {
    expect(await readAsks(capabilities)).toEqual(await readAsksModern(capabilities));
  });
});

describe("a hostile declaration at initialize", () => {
  const junk = (count: number, size: number) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`junk.example/x${i}`, { value: "x".repeat(size) }]));
  let nested: Json = {};
  for (let depth = 0; depth < 50; depth++) nested = { nested };

  it.each([
    ["about 900 KB of extensions", { extensions: junk(9000, 80) }],
    ["one extension of 900 KB", { extensions: { "junk.example/big": { value: "x".repeat(900_000) } } }],
    ["a name of 100,000 characters", { extensions: { ["n".repeat(100_000)]: {} } }],
    ["settings nested 50 deep", { extensions: { "junk.example/deep": nested } }],
    ["extensions that are a list", { extensions: [{ "io.modelcontextprotocol/ui": {} }] }],
    ["extensions that are a string", { extensions: "io.modelcontextprotocol/ui" }],
    ["a __proto__ extension", JSON.parse('{"extensions":{"__proto__":{"polluted":true}}}')],
    [
      "elicitation with 50,000 keys",
      { elicitation: Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, {}])) },
    ],
    ["everything at once", { elicitation: { form: { x: "y".repeat(100_000) } }, extensions: junk(2000, 200) }],
  ])("%s: initializes, with a session id within the bound that later requests present", async (_, capabilities) => {
    const initialized = await postLegacy(target, undefined, {
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "hostile", version: "1" } },
    });
    expect(initialized.status).toBe(200);
    expect(initialized.body!.result.protocolVersion).toBe("2025-11-25");
    const session = await initializeLegacy(target, capabilities);
    expect(session!.length).toBeLessThanOrEqual(SESSION_ID_BOUND);
    const listed = await postLegacy(target, session, { id: 2, method: "tools/list" });
    expect(listed.status).toBe(200);
  });

  it("a declaration filling every kept part to its bound still gets a session id within the bound", async () => {
    const fullest = {
      elicitation: { form: {}, url: {} },
      sampling: { context: {}, tools: {} },
      roots: { listChanged: true },
      // Each fits the per-extension bound; together they fill the session's budget for extensions.
      extensions: Object.fromEntries(
        Array.from({ length: 8 }, (_, i) => [`wide.example/${"e".repeat(100)}${i}`, { v: "x".repeat(120) }]),
      ),
    };
    const session = await initializeLegacy(target, fullest);
    expect(session!.length).toBeLessThanOrEqual(SESSION_ID_BOUND);
    expect((await postLegacy(target, session, { id: 2, method: "tools/list" })).status).toBe(200);
  });
});
