/**
 * Multi round-trip requests with the official 2026-07-28 client: automatic mode (its
 * elicitation handler answers and it retries) and manual mode (`allowInputRequired`).
 */
import {
  MissingRequiredClientCapabilityError,
  isInputRequiredResult,
  withInputRequired,
  type Client,
  type ClientCapabilities,
  type ElicitRequest,
  type ElicitResult,
  type InputRequiredResult,
} from "@modelcontextprotocol/client";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectModernClient } from "../helpers/clients";
import { startServer, type RunningServer } from "../helpers/server.mjs";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

type Answer = (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;

/** A client that answers every elicitation with `answer`, recording what it was asked. */
async function answeringClient(answer: Answer, capabilities: ClientCapabilities = { elicitation: { form: {} } }) {
  const asked: Record<string, unknown>[] = [];
  const client = await connectModernClient(server.url, { capabilities });
  client.setRequestHandler("elicitation/create", async (request) => {
    asked.push(request.params);
    return answer(request);
  });
  return { client, asked };
}

const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0]!.text;
const noteIds = async (client: Client) => text(await client.callTool({ name: "list_notes", arguments: {} }));

describe("delete_note, answered automatically by the client", () => {
  it("asks for confirmation, then deletes on accept + true", async () => {
    const { client, asked } = await answeringClient(() => ({ action: "accept", content: { confirm: true } }));
    const result = await client.callTool({ name: "delete_note", arguments: { note_id: "7" } });
    expect(text(result)).toBe('Deleted note 7 ("Groceries").');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ mode: "form", message: expect.stringContaining("cannot be undone") });
    expect(await noteIds(client)).not.toContain("#7 ");
    await client.close();
  });

  it.each([
    ["decline", { action: "decline" } as ElicitResult, 'the person chose decline'],
    ["cancel", { action: "cancel" } as ElicitResult, "the person chose cancel"],
    ["accept with the box unchecked", { action: "accept", content: { confirm: false } } as ElicitResult, "the box was left unchecked"],
  ])("keeps the note on %s, as a normal result", async (_, answer, why) => {
    const { client } = await answeringClient(() => answer);
    const result = await client.callTool({ name: "delete_note", arguments: { note_id: "12" } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe(`Kept note 12 ("Conference talk"): ${why}.`);
    expect(await noteIds(client)).toContain("#12 ");
    await client.close();
  });

  it("answers an unknown note at once, without asking", async () => {
    const { client, asked } = await answeringClient(() => ({ action: "accept", content: { confirm: true } }));
    const result = await client.callTool({ name: "delete_note", arguments: { note_id: "404" } });
    expect(result.isError).toBe(true);
    expect(asked).toHaveLength(0);
    await client.close();
  });

  it("asks again when the answer does not fit the form", async () => {
    let round = 0;
    const { client, asked } = await answeringClient(() =>
      ++round === 1 ? { action: "accept", content: { confirm: "yes" } } : { action: "decline" },
    );
    const result = await client.callTool({ name: "delete_note", arguments: { note_id: "15" } });
    expect(asked).toHaveLength(2);
    expect(text(result)).toMatch(/^Kept note 15/);
    await client.close();
  });

  it("refuses a client without elicitation with -32021, and the note survives", async () => {
    const client = await connectModernClient(server.url, { capabilities: {} });
    const error = await client.callTool({ name: "delete_note", arguments: { note_id: "15" } }).catch((caught) => caught);
    expect(error).toBeInstanceOf(MissingRequiredClientCapabilityError);
    expect(error.code).toBe(-32021);
    expect(error.requiredCapabilities).toEqual({ elicitation: { form: {} } });
    expect(await noteIds(client)).toContain("#15 ");
    await client.close();
  });
});

/**
 * Manual mode: the test plays the client's part, round by round, with `allowInputRequired`.
 * `answer` gets each embedded request and returns the response for its key.
 */
async function driveByHand(
  url: string,
  method: "tools/call" | "prompts/get" | "resources/read",
  params: Record<string, unknown>,
  answer: (key: string, request: { method: string; params?: Record<string, unknown> }) => unknown | Promise<unknown>,
  capabilities: ClientCapabilities = { elicitation: { form: {}, url: {} } },
) {
  const client = await connectModernClient(url, { capabilities, autoFulfill: false });
  const rounds: InputRequiredResult[] = [];
  let retry: Record<string, unknown> = {};
  try {
    for (;;) {
      const result = await client.request({ method, params: { ...params, ...retry } } as never, withInputRequired(z.looseObject({})), {
        allowInputRequired: true,
      });
      if (!isInputRequiredResult(result)) return { rounds, result: result as Record<string, any> };
      expect(result.requestState).toMatch(/^v1\./);
      rounds.push(result);
      if (rounds.length > 5) throw new Error("too many rounds");
      const inputResponses: Record<string, unknown> = {};
      for (const [key, request] of Object.entries(result.inputRequests ?? {})) inputResponses[key] = await answer(key, request);
      retry = { inputResponses, requestState: result.requestState };
    }
  } finally {
    await client.close();
  }
}

describe("driven by hand (allowInputRequired): every example, round by round", () => {
  // Its own server: these flows delete notes and connect the account.
  let own: RunningServer;
  beforeAll(async () => {
    own = await startServer();
  });
  afterAll(() => own.stop());
  it.each([
    ["decline", { action: "decline" }, /^Kept note 12 .*chose decline/],
    ["cancel", { action: "cancel" }, /^Kept note 12 .*chose cancel/],
    ["accept", { action: "accept", content: { confirm: true } }, /^Deleted note 12/],
  ])("delete_note: %s", async (_, response, expected) => {
    const { rounds, result } = await driveByHand(own.url, "tools/call", { name: "delete_note", arguments: { note_id: "12" } }, () => response);
    expect(rounds).toHaveLength(1);
    expect(Object.keys(rounds[0]!.inputRequests!)).toEqual(["confirm"]);
    expect(result.content[0].text).toMatch(expected);
    expect(result.isError).toBeFalsy();
  });

  it("wizard: three rounds, a new state each time", async () => {
    const content: Record<string, object> = { name: { name: "Bo" }, color: { color: "red" }, size: { size: 2 } };
    const { rounds, result } = await driveByHand(own.url, "tools/call", { name: "wizard", arguments: {} }, (key) => ({ action: "accept", content: content[key] }));
    expect(rounds.map((round) => Object.keys(round.inputRequests!)[0])).toEqual(["name", "color", "size"]);
    expect(new Set(rounds.map((round) => round.requestState)).size).toBe(3);
    expect(result.content[0].text).toBe("All set, Bo: a red one, size 2.");
  });

  it("write_note (prompts/get)", async () => {
    const { rounds, result } = await driveByHand(own.url, "prompts/get", { name: "write_note" }, () => ({
      action: "accept",
      content: { topic: "tea", tone: "formal" },
    }));
    expect(rounds).toHaveLength(1);
    expect(result.messages[0].content.text).toBe("Draft a short formal note about: tea");
  });

  it("notes://export (resources/read), declined: falls back to markdown", async () => {
    const { rounds, result } = await driveByHand(own.url, "resources/read", { uri: "notes://export" }, () => ({ action: "decline" }));
    expect(rounds).toHaveLength(1);
    expect(result.contents[0].mimeType).toBe("text/markdown");
    expect(result).toMatchObject({ ttlMs: 0, cacheScope: "private" });
  });

  it("connect_account (URL mode): accept without finishing the page is asked again", async () => {
    let visits = 0;
    const { rounds, result } = await driveByHand(own.url, "tools/call", { name: "connect_account", arguments: {} }, async (_, request) => {
      if (++visits === 2) await fetch(String(request.params!.url), { method: "POST" });
      return { action: "accept" };
    });
    expect(rounds).toHaveLength(2);
    expect(rounds[0]!.inputRequests!.connect).toMatchObject({ method: "elicitation/create", params: { mode: "url" } });
    expect(result.content[0].text).toBe("Your demo account is connected.");
  });
});

describe("wizard: three rounds, state carried in requestState", () => {
  const answers: Record<string, Record<string, string | number>> = { name: { name: "Ada" }, color: { color: "green" }, size: { size: 7 } };
  const fieldOf = (request: ElicitRequest) =>
    Object.keys((request.params as { requestedSchema: { properties: object } }).requestedSchema.properties)[0]!;

  it("asks one question per round and summarises", async () => {
    const { client, asked } = await answeringClient((request) => ({ action: "accept", content: answers[fieldOf(request)] }));
    const result = await client.callTool({ name: "wizard", arguments: {} });
    expect(text(result)).toBe("All set, Ada: a green one, size 7.");
    expect(asked.map((params) => params.message)).toEqual([
      "Step 1 of 3: what should we call you?",
      "Step 2 of 3: Ada, pick a colour.",
      "Step 3 of 3: how big should it be?",
    ]);
    await client.close();
  });

  it("stops cleanly when the person cancels at step 2", async () => {
    const { client } = await answeringClient((request) =>
      fieldOf(request) === "color" ? { action: "cancel" } : { action: "accept", content: answers[fieldOf(request)] },
    );
    const result = await client.callTool({ name: "wizard", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('Wizard stopped at step 2 of 3 because you chose "cancel". Nothing was saved.');
    await client.close();
  });
});

describe("prompts/get and resources/read can ask too", () => {
  it("write_note asks for a topic and a tone", async () => {
    const { client } = await answeringClient(() => ({ action: "accept", content: { topic: "the garden", tone: "cheerful" } }));
    const prompt = await client.getPrompt({ name: "write_note" });
    expect(prompt.messages[0]!.content).toMatchObject({ text: "Draft a short cheerful note about: the garden" });
    await client.close();
  });

  it("notes://export asks for the format", async () => {
    const { client } = await answeringClient(() => ({ action: "accept", content: { format: "json" } }));
    const read = await client.readResource({ uri: "notes://export" });
    expect(read.contents[0]).toMatchObject({ mimeType: "application/json" });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual(expect.arrayContaining([expect.objectContaining({ id: "12" })]));
    await client.close();
  });
});

describe("URL mode: connect_account", () => {
  it("ends with a normal result when the person declines", async () => {
    const { client } = await answeringClient(() => ({ action: "decline" }), { elicitation: { url: {} } });
    const result = await client.callTool({ name: "connect_account", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('Not connected: you chose "decline".');
    await client.close();
  });

  it("asks again until the page was really completed, then connects", async () => {
    let round = 0;
    const { client, asked } = await answeringClient(
      async (request) => {
        // Round 1: the person agrees but does not finish the page. Round 2: they do.
        if (++round === 2) {
          const page = await fetch((request.params as { url: string }).url, { method: "POST" });
          expect(page.status).toBe(200);
        }
        return { action: "accept" };
      },
      { elicitation: { url: {} } },
    );
    const result = await client.callTool({ name: "connect_account", arguments: {} });
    expect(text(result)).toBe("Your demo account is connected.");
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({ mode: "url", url: expect.stringMatching(/\/connect\/[A-Za-z0-9_-]{24}$/) });
    expect(asked[1]!.url).toBe(asked[0]!.url);
    await client.close();
  });

  it("needs the url sub-capability: a form-only client gets -32021", async () => {
    const fresh = await startServer();
    const client = await connectModernClient(fresh.url, { capabilities: { elicitation: {} } });
    const error = await client.callTool({ name: "connect_account", arguments: {} }).catch((caught) => caught);
    expect(error).toBeInstanceOf(MissingRequiredClientCapabilityError);
    expect(error.requiredCapabilities).toEqual({ elicitation: { url: {} } });
    await client.close();
    await fresh.stop();
  });
});
