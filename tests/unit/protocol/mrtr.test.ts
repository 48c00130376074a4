/**
 * Multi round-trip requests driven by hand, in-process: each round's questions, states and results on the
 * wire, for tools, prompts and resources, and the capability checks. The official client's own handling of
 * them (automatic and manual) is tested end to end in tests/e2e/mrtr-client.test.ts.
 */
import { ok as assert } from "node:assert";
import { type InputRequest, type InputRequiredResult, isInputRequiredResult } from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type Json, type TestClient, type TestServer } from "../../helpers/in-process";
import { CONFIRM, ELICITATION, FIXTURES, readCounter, uniqueKey } from "./flows";

let server: TestServer;
let client: TestClient;
beforeAll(async () => {
  server = await createTestServer(FIXTURES);
  client = server.connect({ capabilities: { elicitation: { form: {}, url: {} } } });
});

/** Plays the client's part round by round: `answer` gets each question and returns the response for its key. */
async function driveByHand<Method extends string>(
  method: Method,
  params: Json,
  answer: (key: string, request: InputRequest) => Json,
) {
  const rounds: InputRequiredResult[] = [];
  let retry: Json = {};
  for (;;) {
    const result = await client.call(method, { ...params, ...retry }, { stopAtInputRequired: true });
    if (!isInputRequiredResult(result)) return { rounds, result };
    expect(result.requestState).toMatch(/^v1\./);
    rounds.push(result);
    if (rounds.length > 5) throw new Error("too many rounds");
    const inputResponses = Object.fromEntries(
      Object.entries(result.inputRequests ?? {}).map(([key, request]) => [key, answer(key, request)]),
    );
    retry = { inputResponses, requestState: result.requestState };
  }
}

describe("driven by hand, round by round", () => {
  it.each([
    ["decline", { action: "decline" }, "unchanged: decline"],
    ["cancel", { action: "cancel" }, "unchanged: cancel"],
    ["accept with the box unchecked", { action: "accept", content: { confirm: false } }, "unchanged: not confirmed"],
    ["accept", { action: "accept", content: { confirm: true } }, "is now 1"],
  ])("confirm_increment: %s", async (_, response, expected) => {
    const key = uniqueKey();
    const { rounds, result } = await driveByHand(
      "tools/call",
      { name: "confirm_increment", arguments: { key } },
      () => response,
    );
    expect(rounds).toHaveLength(1);
    expect(rounds[0]!.inputRequests).toEqual({
      confirm: {
        method: "elicitation/create",
        params: expect.objectContaining({ mode: "form", message: `Increment counter ${key}?` }),
      },
    });
    expect(result.content).toEqual([{ type: "text", text: `Counter ${key} ${expected}.` }]);
    expect(result.isError).toBeUndefined();
    expect(await readCounter(client, key)).toBe(expected === "is now 1" ? 1 : 0);
  });

  it("asks again when the answer does not fit the form", async () => {
    const key = uniqueKey();
    let round = 0;
    const { rounds, result } = await driveByHand("tools/call", { name: "confirm_increment", arguments: { key } }, () =>
      ++round === 1 ? { action: "accept", content: { confirm: "yes" } } : { action: "decline" },
    );
    expect(rounds).toHaveLength(2);
    expect(result.content).toEqual([{ type: "text", text: `Counter ${key} unchanged: decline.` }]);
  });

  it("three_questions: three rounds, a new state each time", async () => {
    const content: Json = { word: { word: "Bo" }, color: { color: "red" }, size: { size: 2 } };
    const { rounds, result } = await driveByHand("tools/call", { name: "three_questions", arguments: {} }, (key) => ({
      action: "accept",
      content: content[key],
    }));
    const questions = rounds.map((round) => Object.entries(round.inputRequests ?? {}));
    expect(questions.map((asked) => asked.map(([key]) => key))).toEqual([["word"], ["color"], ["size"]]);
    expect(
      questions.map((asked) =>
        asked.map(([, request]) => request.method === "elicitation/create" && request.params.message),
      ),
    ).toEqual([["Question 1: a word?"], ["Question 2: a colour for Bo?"], ["Question 3: a size?"]]);
    expect(new Set(rounds.map((round) => round.requestState)).size).toBe(3);
    expect(result.content).toEqual([{ type: "text", text: "Bo, red, 2." }]);
  });

  it("three_questions: stops cleanly when the person cancels at question 2", async () => {
    const result = await client.callTool(
      "three_questions",
      {},
      { answers: { word: { action: "accept", content: { word: "Ada" } }, color: "cancel" } },
    );
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: "text", text: "Stopped at question 2: cancel." }]);
  });

  it("asking_prompt (prompts/get)", async () => {
    const { rounds, result } = await driveByHand("prompts/get", { name: "asking_prompt" }, () => ({
      action: "accept",
      content: { topic: "tea", tone: "formal" },
    }));
    expect(rounds).toHaveLength(1);
    expect(result.messages[0]?.content).toEqual({ type: "text", text: "A formal text about tea." });
  });

  it("asking-resource (resources/read), accepted: the chosen format", async () => {
    const read = await client.readResource("fixture://asks", {
      answers: () => ({ action: "accept", content: { format: "json" } }),
    });
    expect(read.contents[0]).toMatchObject({ text: '{"format":"json"}' });
  });

  it("asking-resource (resources/read), declined: the default format, not cached", async () => {
    const { rounds, result } = await driveByHand("resources/read", { uri: "fixture://asks" }, () => ({
      action: "decline",
    }));
    expect(rounds).toHaveLength(1);
    expect(result.contents[0]).toMatchObject({ text: "plain" });
    expect(result).toMatchObject({ ttlMs: 0, cacheScope: "private" });
  });

  it("open_link (URL mode): the question carries the URL; the answer is an answer", async () => {
    const { rounds, result } = await driveByHand("tools/call", { name: "open_link", arguments: {} }, () => ({
      action: "accept",
    }));
    expect(rounds[0]?.inputRequests?.open).toMatchObject({
      method: "elicitation/create",
      params: { mode: "url", url: "https://example.test/step" },
    });
    expect(result.content).toEqual([{ type: "text", text: "You chose accept." }]);
  });
});

describe("capabilities", () => {
  it("refuses to ask a client without elicitation with -32021 and 400, naming what is missing, and does not act", async () => {
    const bare = server.connect();
    const key = uniqueKey();
    const refused = await bare.request("tools/call", { name: "confirm_increment", arguments: { key } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
    expect(await readCounter(bare, key)).toBe(0);
  });

  it("needs the url sub-capability for URL mode: a form-only client gets -32021", async () => {
    const formOnly = server.connect({ capabilities: ELICITATION });
    await expect(formOnly.callTool("open_link")).rejects.toMatchObject({
      code: -32021,
      status: 400,
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
  });

  it("lets asking-resource degrade for a client that cannot be asked", async () => {
    expect((await server.connect().readResource("fixture://asks")).contents[0]).toMatchObject({
      text: "plain (not asked)",
    });
  });

  it("asks for sampling and roots only of a client that declares them", async () => {
    const none = server.connect();
    await expect(none.callTool("ask_model_and_roots")).rejects.toMatchObject({ code: -32021 });
    const both = server.connect({ capabilities: { sampling: {}, roots: {} } });
    const asked = await both.callTool("ask_model_and_roots", {}, { stopAtInputRequired: true });
    assert(isInputRequiredResult(asked), "ask_model_and_roots asks first");
    expect(
      Object.values(asked.inputRequests ?? {})
        .map((request) => request.method)
        .sort(),
    ).toEqual(["roots/list", "sampling/createMessage"]);
  });

  it("fails a test clearly when it gives no answer for a question", async () => {
    await expect(client.callTool("confirm_increment", { key: uniqueKey() })).rejects.toThrow(
      /no answer for the input request "confirm"/,
    );
  });

  it("answers with the client's default answers", async () => {
    const agreeing = server.connect({ capabilities: ELICITATION, answers: CONFIRM });
    const key = uniqueKey();
    expect((await agreeing.callTool("confirm_increment", { key })).content).toEqual([
      { type: "text", text: `Counter ${key} is now 1.` },
    ]);
  });
});

describe("sampling and roots", () => {
  it("takes a model's answer and the client's roots in one round", async () => {
    const both = server.connect({ capabilities: { sampling: {}, roots: {} } });
    const result = await both.callTool(
      "ask_model_and_roots",
      {},
      {
        answers: {
          word: { role: "assistant", content: { type: "text", text: "teapot" }, model: "test-model" },
          roots: { roots: [{ uri: "file:///work", name: "work" }] },
        },
      },
    );
    expect(result.content).toEqual([{ type: "text", text: "The model said teapot; roots: file:///work." }]);
  });
});
