/**
 * Multi round-trip requests with the official 2026-07-28 client, on the test fixtures: its handlers
 * answer and it retries. The rounds driven by hand are tested in-process (tests/unit/protocol/mrtr.test.ts).
 */
import {
  MissingRequiredClientCapabilityError,
  type Client,
  type ClientCapabilities,
  type ElicitRequest,
  type ElicitResult,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectModernClient } from "../helpers/clients";
import { ELICITATION, uniqueKey } from "../helpers/flows";
import { startServer, type RunningServer } from "../helpers/server.mjs";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

type Answer = (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;

/** A client that answers every elicitation with `answer`, recording what it was asked. */
async function answeringClient(answer: Answer, capabilities: ClientCapabilities = ELICITATION) {
  const asked: Record<string, any>[] = [];
  const client = await connectModernClient(server.url, { capabilities });
  client.setRequestHandler("elicitation/create", async (request) => {
    asked.push(request.params);
    return answer(request);
  });
  return { client, asked };
}

const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0]!.text;
const counter = async (client: Client, key: string) =>
  ((await client.callTool({ name: "read_counter", arguments: { key } })).structuredContent as { value: number }).value;

describe("confirm_increment, answered automatically by the client", () => {
  it("asks for confirmation, then acts on accept + true", async () => {
    const { client, asked } = await answeringClient(() => ({ action: "accept", content: { confirm: true } }));
    const key = uniqueKey();
    const result = await client.callTool({ name: "confirm_increment", arguments: { key } });
    expect(text(result)).toBe(`Counter ${key} is now 1.`);
    expect(asked).toEqual([expect.objectContaining({ mode: "form", message: `Increment counter ${key}?` })]);
    expect(await counter(client, key)).toBe(1);
    await client.close();
  });

  it.each([
    ["decline", { action: "decline" } as ElicitResult, "decline"],
    ["cancel", { action: "cancel" } as ElicitResult, "cancel"],
    [
      "accept with the box unchecked",
      { action: "accept", content: { confirm: false } } as ElicitResult,
      "not confirmed",
    ],
  ])("does not act on %s, and answers with a normal result", async (_, answer, why) => {
    const { client } = await answeringClient(() => answer);
    const key = uniqueKey();
    const result = await client.callTool({ name: "confirm_increment", arguments: { key } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe(`Counter ${key} unchanged: ${why}.`);
    expect(await counter(client, key)).toBe(0);
    await client.close();
  });

  it("asks again when the answer does not fit the form", async () => {
    let round = 0;
    const { client, asked } = await answeringClient(() =>
      ++round === 1 ? { action: "accept", content: { confirm: "yes" } } : { action: "decline" },
    );
    const key = uniqueKey();
    expect(text(await client.callTool({ name: "confirm_increment", arguments: { key } }))).toBe(
      `Counter ${key} unchanged: decline.`,
    );
    expect(asked).toHaveLength(2);
    await client.close();
  });

  it("refuses a client without elicitation with -32021, and does not act", async () => {
    const client = await connectModernClient(server.url, { capabilities: {} });
    const key = uniqueKey();
    const error = await client.callTool({ name: "confirm_increment", arguments: { key } }).catch((caught) => caught);
    expect(error).toBeInstanceOf(MissingRequiredClientCapabilityError);
    expect(error.code).toBe(-32021);
    expect(error.requiredCapabilities).toEqual({ elicitation: { form: {} } });
    expect(await counter(client, key)).toBe(0);
    await client.close();
  });
});

describe("three_questions: three rounds, state carried in requestState", () => {
  const answers: Record<string, Record<string, string | number>> = {
    word: { word: "Ada" },
    color: { color: "green" },
    size: { size: 7 },
  };
  const fieldOf = (request: ElicitRequest) =>
    Object.keys((request.params as { requestedSchema: { properties: object } }).requestedSchema.properties)[0]!;

  it("asks one question per round and summarises", async () => {
    const { client, asked } = await answeringClient((request) => ({
      action: "accept",
      content: answers[fieldOf(request)],
    }));
    expect(text(await client.callTool({ name: "three_questions", arguments: {} }))).toBe("Ada, green, 7.");
    expect(asked.map((params) => params.message)).toEqual([
      "Question 1: a word?",
      "Question 2: a colour for Ada?",
      "Question 3: a size?",
    ]);
    await client.close();
  });

  it("stops cleanly when the person cancels at question 2", async () => {
    const { client } = await answeringClient((request) =>
      fieldOf(request) === "color" ? { action: "cancel" } : { action: "accept", content: answers[fieldOf(request)] },
    );
    const result = await client.callTool({ name: "three_questions", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe("Stopped at question 2: cancel.");
    await client.close();
  });
});

describe("prompts/get and resources/read can ask too", () => {
  it("asking_prompt asks for a topic and a tone", async () => {
    const { client } = await answeringClient(() => ({
      action: "accept",
      content: { topic: "the garden", tone: "plain" },
    }));
    const prompt = await client.getPrompt({ name: "asking_prompt" });
    expect(prompt.messages[0]!.content).toMatchObject({ text: "A plain text about the garden." });
    await client.close();
  });

  it("asking-resource asks for the format", async () => {
    const { client } = await answeringClient(() => ({ action: "accept", content: { format: "json" } }));
    const read = await client.readResource({ uri: "fixture://asks" });
    expect(read.contents[0]).toMatchObject({ text: '{"format":"json"}' });
    await client.close();
  });

  it("asking-resource degrades for a client that cannot be asked", async () => {
    const client = await connectModernClient(server.url, { capabilities: {} });
    expect((await client.readResource({ uri: "fixture://asks" })).contents[0]).toMatchObject({
      text: "plain (not asked)",
    });
    await client.close();
  });
});

describe("URL mode", () => {
  it("ends with a normal result when the person declines", async () => {
    const { client } = await answeringClient(() => ({ action: "decline" }), { elicitation: { url: {} } });
    const result = await client.callTool({ name: "open_link", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe("You chose decline.");
    await client.close();
  });

  it("needs the url sub-capability: a form-only client gets -32021", async () => {
    const client = await connectModernClient(server.url, { capabilities: { elicitation: {} } });
    const error = await client.callTool({ name: "open_link", arguments: {} }).catch((caught) => caught);
    expect(error).toBeInstanceOf(MissingRequiredClientCapabilityError);
    expect(error.requiredCapabilities).toEqual({ elicitation: { url: {} } });
    await client.close();
  });
});
