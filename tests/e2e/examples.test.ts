/**
 * The shipped examples (server/tools, prompts, resources) against the product build, the way
 * `npm run build` makes it. A fork that deletes the examples deletes this file with them.
 */
import { MissingRequiredClientCapabilityError, type Client } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { connectModernClient } from "../helpers/clients";
import { ELICITATION } from "../helpers/flows";
import { post } from "../helpers/rpc";
import { createTask, taskRequest, waitForStatus } from "../helpers/tasks";
import { OUTPUT, startServer, type RunningServer } from "../helpers/server.mjs";
import { hasFeature } from "../helpers/project.mjs";

const startProduct = () => startServer({ output: OUTPUT.product });
const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

/** A client answering every elicitation with `answer`. */
async function answering(
  url: string,
  answer: (params: Record<string, any>) => unknown,
  capabilities: object = ELICITATION,
): Promise<Client> {
  const client = await connectModernClient(url, { capabilities });
  client.setRequestHandler(
    "elicitation/create",
    async (request) => answer(request.params as Record<string, any>) as never,
  );
  return client;
}

let server: RunningServer;
beforeAll(async () => {
  server = await startProduct();
});
afterAll(() => server.stop());

describe("the example catalogue", () => {
  it("lists the examples and no test fixtures", async () => {
    const client = await connectModernClient(server.url);
    // export_notes is a task: it goes with the tasks feature; greet_card, notes_board and the board's own
    // delete_note_from_board go with the apps feature.
    const tools = [
      "add",
      "connect_account",
      "countdown",
      "delete_note",
      ...(hasFeature("apps") ? ["delete_note_from_board"] : []),
      ...(hasFeature("tasks") ? ["export_notes"] : []),
      "greet",
      ...(hasFeature("apps") ? ["greet_card"] : []),
      "list_notes",
      ...(hasFeature("apps") ? ["notes_board"] : []),
      "wizard",
    ];
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(tools);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["summarize_note", "write_note"]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      "note://{id}",
    ]);
    await client.close();
  });

  it("add, greet (x-mcp-header) and countdown (progress)", async () => {
    const client = await connectModernClient(server.url);
    expect((await client.callTool({ name: "add", arguments: { a: 20, b: 22 } })).structuredContent).toEqual({
      sum: 42,
    });
    expect(text(await client.callTool({ name: "greet", arguments: { name: "Zoë", locale: "de" } }))).toBe(
      "Hallo, Zoë!",
    );
    const progress: number[] = [];
    const done = await client.callTool(
      { name: "countdown", arguments: { from: 3, delay_ms: 5 } },
      { onprogress: (event) => progress.push(event.progress) },
    );
    expect(progress).toEqual([0, 1, 2, 3]);
    expect(text(done)).toBe("Lift-off!");
    // A longer pause would let one call outlast every stream's deadline.
    const tooSlow = await client.callTool({ name: "countdown", arguments: { from: 100, delay_ms: 1_001 } });
    expect(tooSlow.isError).toBe(true);
    expect(text(tooSlow)).toMatch(/delay_ms/);
    await client.close();
  });

  it("countdown cancelled by its client: the operator's log says so in a JSON line", async () => {
    const client = await connectModernClient(server.url);
    const cancel = new AbortController();
    const call = client.callTool(
      { name: "countdown", arguments: { from: 50, delay_ms: 20 } },
      { signal: cancel.signal, onprogress: () => cancel.abort() },
    );
    await expect(call).rejects.toThrow();
    const noted = (line: string) => line.includes("cancelled by the client after");
    await expect.poll(() => server.rawLogs().split("\n").find(noted), { timeout: 5_000 }).toBeDefined();
    const line = server.rawLogs().split("\n").find(noted)!;
    expect(JSON.parse(line)).toMatchObject({
      level: "info",
      msg: expect.stringMatching(/^countdown cancelled by the client after \d+ of 50 steps$/),
    });
    await client.close();
  });

  it("summarize_note (prompt with completion) and note://{id} (template)", async () => {
    const client = await connectModernClient(server.url);
    const prompt = await client.getPrompt({ name: "summarize_note", arguments: { note_id: "15", style: "haiku" } });
    expect(prompt.messages[0]!.content).toMatchObject({ text: expect.stringContaining("Plant care") });
    const completion = await client.complete({
      ref: { type: "ref/prompt", name: "summarize_note" },
      argument: { name: "note_id", value: "1" },
    });
    expect(completion.completion.values).toEqual(expect.arrayContaining(["12", "15"]));
    expect((await client.readResource({ uri: "note://15" })).contents[0]).toMatchObject({
      text: expect.stringContaining("fern"),
    });
    await client.close();
  });
});

describe("delete_note", () => {
  it("asks, then deletes note 7 on accept + true", async () => {
    const asked: Record<string, any>[] = [];
    const client = await answering(server.url, (params) => {
      asked.push(params);
      return { action: "accept", content: { confirm: true } };
    });
    expect(text(await client.callTool({ name: "delete_note", arguments: { note_id: "7" } }))).toBe(
      'Deleted note 7 ("Groceries").',
    );
    expect(asked[0]).toMatchObject({ mode: "form", message: expect.stringContaining("cannot be undone") });
    expect(text(await client.callTool({ name: "list_notes", arguments: {} }))).not.toContain("#7 ");
    await client.close();
  });

  it("keeps note 12 on decline, as a normal result", async () => {
    const client = await answering(server.url, () => ({ action: "decline" }));
    const result = await client.callTool({ name: "delete_note", arguments: { note_id: "12" } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('Kept note 12 ("Conference talk"): the person chose decline.');
    await client.close();
  });

  it("answers an unknown note at once, without asking", async () => {
    const result = await post(
      server.url,
      "tools/call",
      { name: "delete_note", arguments: { note_id: "404" } },
      { capabilities: ELICITATION },
    );
    expect(result.body.result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining("no note with id 404") }],
    });
  });

  it("refuses a client without elicitation with -32021", async () => {
    const client = await connectModernClient(server.url, { capabilities: {} });
    const error = await client
      .callTool({ name: "delete_note", arguments: { note_id: "15" } })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(MissingRequiredClientCapabilityError);
    await client.close();
  });

  it.each(["15:x", "15/..", "15?x", "../15"])(
    "refuses the note id %j before it reaches storage, and note 15 stays",
    async (noteId) => {
      const result = await post(
        server.url,
        "tools/call",
        { name: "delete_note", arguments: { note_id: noteId } },
        { capabilities: ELICITATION },
      );
      expect(result.body.result).toMatchObject({
        isError: true,
        content: [{ text: expect.stringContaining("letters, digits, - and _ only") }],
      });
      expect(
        (await post(server.url, "tools/call", { name: "list_notes", arguments: {} })).body.result.content[0].text,
      ).toContain("#15 ");
    },
  );

  it.runIf(hasFeature("legacy"))("refuses to delete for a 2025-era client, and says why", async () => {
    const legacy = new LegacyClient({ name: "legacy", version: "1.0.0" });
    await legacy.connect(new LegacyTransport(new URL(server.url)));
    const result = await legacy.callTool({ name: "delete_note", arguments: { note_id: "15" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /needs to ask you something first \(elicitation \(form\), needed to ask for confirm\), which this client did not declare when it connected/,
    );
    expect(text(await legacy.callTool({ name: "list_notes", arguments: {} }))).toContain("#15 ");
    await legacy.close();
  });
});

describe("wizard, write_note and notes://export", () => {
  it("wizard asks three questions, one per round", async () => {
    const answers: Record<string, object> = { name: { name: "Ada" }, color: { color: "green" }, size: { size: 7 } };
    const client = await answering(server.url, (params) => ({
      action: "accept",
      content: answers[Object.keys(params.requestedSchema.properties)[0]!],
    }));
    expect(text(await client.callTool({ name: "wizard", arguments: {} }))).toBe("All set, Ada: a green one, size 7.");
    await client.close();
  });

  it("write_note (prompts/get) asks for a topic and a tone", async () => {
    const client = await answering(server.url, () => ({
      action: "accept",
      content: { topic: "the garden", tone: "cheerful" },
    }));
    expect((await client.getPrompt({ name: "write_note" })).messages[0]!.content).toMatchObject({
      text: "Draft a short cheerful note about: the garden",
    });
    await client.close();
  });

  it("notes://export (resources/read) asks for the format, and falls back to markdown when it cannot ask", async () => {
    const client = await answering(server.url, () => ({ action: "accept", content: { format: "json" } }));
    expect((await client.readResource({ uri: "notes://export" })).contents[0]).toMatchObject({
      mimeType: "application/json",
    });
    const silent = await connectModernClient(server.url, { capabilities: {} });
    expect((await silent.readResource({ uri: "notes://export" })).contents[0]).toMatchObject({
      mimeType: "text/markdown",
    });
    await Promise.all([client.close(), silent.close()]);
  });
});

describe("connect_account (URL mode)", () => {
  /** A fresh connect link, from round one of connect_account. */
  async function connectLink(url: string): Promise<string> {
    const first = await post(
      url,
      "tools/call",
      { name: "connect_account", arguments: {} },
      { capabilities: { elicitation: { url: {} } } },
    );
    return first.body.result.inputRequests.connect.params.url;
  }

  it("links to the origin the client reached: an X-Forwarded-Proto it wrote counts only through NITRO_MCP_TRUST_PROXY", async () => {
    const first = await post(
      server.url,
      "tools/call",
      { name: "connect_account", arguments: {} },
      { capabilities: { elicitation: { url: {} } }, headers: { "x-forwarded-proto": "https" } },
    );
    expect(first.body.result.inputRequests.connect.params.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/connect\//);
  });

  it("behind a trusted proxy (NITRO_MCP_TRUST_PROXY=1), links over https and takes the page's https form post", async () => {
    const proxied = await startServer({ output: OUTPUT.product, env: { NITRO_MCP_TRUST_PROXY: "1" } });
    onTestFinished(() => proxied.stop());
    const https = { "x-forwarded-proto": "https", "x-forwarded-for": "192.0.2.7" };
    const first = await post(
      proxied.url,
      "tools/call",
      { name: "connect_account", arguments: {} },
      { capabilities: { elicitation: { url: {} } }, headers: https },
    );
    const link = new URL(first.body.result.inputRequests.connect.params.url);
    expect(link.protocol).toBe("https:");
    const page = new URL(link.pathname, proxied.url);
    const posted = await fetch(page, { method: "POST", headers: { ...https, origin: link.origin } });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain("Done.");
  });

  it("serves a page that cannot be framed", async () => {
    const page = await fetch(await connectLink(server.url));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
  });

  it.each([
    ["another site's Origin", { origin: "https://evil.example" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
  ])("refuses a form post with %s, and the account stays unconnected", async (_, headers) => {
    const own = await startProduct();
    const link = await connectLink(own.url);
    expect((await fetch(link, { method: "POST", headers })).status).toBe(403);
    expect(await (await fetch(link)).text()).toContain("Press the button"); // still open: nothing was completed
    await own.stop();
  });

  it("refuses the page and its form to a rebinding page (its own name in Host and Origin), and the account stays unconnected", async () => {
    const own = await startProduct();
    onTestFinished(() => own.stop());
    const link = new URL(await connectLink(own.url));
    const rebound = `rebind.attacker.test:${link.port}`;
    const send = (method: string) =>
      new Promise<number>((resolve, reject) => {
        const headers = { host: rebound, origin: `http://${rebound}`, "sec-fetch-site": "same-origin" };
        request(link, { method, headers }, (response) => resolve(response.resume().statusCode!))
          .on("error", reject)
          .end();
      });
    expect([await send("GET"), await send("POST")]).toEqual([403, 403]);
    expect(await (await fetch(link)).text()).toContain("Press the button");
  });

  it("ends with a normal result when the person declines", async () => {
    const own = await startProduct();
    const client = await answering(own.url, () => ({ action: "decline" }), { elicitation: { url: {} } });
    expect(text(await client.callTool({ name: "connect_account", arguments: {} }))).toBe(
      'Not connected: you chose "decline".',
    );
    await client.close();
    await own.stop();
  });

  it("asks again until the page was really completed, then connects", async () => {
    const own = await startProduct();
    const asked: Record<string, any>[] = [];
    const pagePosts: number[] = [];
    const client = await answering(
      own.url,
      async (params) => {
        asked.push(params);
        // Round 1: the person agrees but does not finish the page. Round 2: they do (checked below,
        // not here: an assertion failing inside the handler would reach the test as a protocol error).
        if (asked.length === 2)
          pagePosts.push(
            (await fetch(params.url, { method: "POST", headers: { origin: new URL(own.url).origin } })).status,
          );
        return { action: "accept" };
      },
      { elicitation: { url: {} } },
    );
    expect(text(await client.callTool({ name: "connect_account", arguments: {} }))).toBe(
      "Your demo account is connected.",
    );
    expect(asked).toHaveLength(2);
    expect(pagePosts).toEqual([200]);
    expect(asked[0]).toMatchObject({ mode: "url", url: expect.stringMatching(/\/connect\/[A-Za-z0-9_-]{24}$/) });
    expect(asked[1]!.url).toBe(asked[0]!.url);
    await client.close();
    await own.stop();
  });
});

describe.runIf(hasFeature("tasks"))("export_notes (a task)", () => {
  it("runs as a task: progress, one question half way, then the document", async () => {
    // A second per note: the progress shows for seconds before the question, long enough for the poll on a busy machine.
    const task = await createTask(server.url, "export_notes", { delay_ms: 1000 });
    expect(task).toMatchObject({ status: "working", ttlMs: expect.any(Number), pollIntervalMs: expect.any(Number) });
    await expect
      .poll(
        async () => (await taskRequest(server.url, "tasks/get", { taskId: task.taskId })).body.result.statusMessage,
        { interval: 50 },
      )
      .toMatch(/^Exporting note \d+ of \d+$/);
    const parked = await waitForStatus(server.url, task.taskId, ["input_required"]);
    const [key] = Object.keys(parked.inputRequests);
    expect(parked.inputRequests[key!].params.message).toMatch(
      /notes are exported \(titles\)\. Include the full texts of the rest\?/,
    );
    expect(parked.statusMessage).toBe("Waiting for an answer");
    await taskRequest(server.url, "tasks/update", {
      taskId: task.taskId,
      inputResponses: { [key!]: { action: "accept", content: { texts: true } } },
    });
    const done = await waitForStatus(server.url, task.taskId, ["completed"]);
    expect(done.result.content[0].text).toMatch(/^# Notes\n\n## /);
    expect(done.result.content[0].text).toContain("fern"); // note 15's text: the second half is exported in full
  });

  it("stops when cancelled", async () => {
    const task = await createTask(server.url, "export_notes", { delay_ms: 2000 });
    await taskRequest(server.url, "tasks/cancel", { taskId: task.taskId });
    expect((await waitForStatus(server.url, task.taskId, ["cancelled"])).status).toBe("cancelled");
  });

  it("runs as a plain call, with progress and the question by multi round-trip, for a client without the extension", async () => {
    const client = await answering(server.url, () => ({ action: "decline" }));
    const progress: number[] = [];
    const result = await client.callTool(
      { name: "export_notes", arguments: { delay_ms: 1 } },
      { onprogress: (event) => progress.push(event.progress) },
    );
    expect(text(result)).toMatch(/^# Notes\n\n## .*\(#\d+\)$/m);
    expect(text(result)).not.toContain("fern"); // declined: titles only
    expect(progress.length).toBeGreaterThan(0);
    await client.close();
  });
});

describe.runIf(hasFeature("skills"))("the notes-helper skill", () => {
  it("is served with its reference file", async () => {
    const { body } = await post(server.url, "skills/list");
    expect(body.result.skills).toEqual([
      expect.objectContaining({
        uri: "skill://notes-helper/SKILL.md",
        frontmatter: expect.objectContaining({ name: "notes-helper" }),
      }),
    ]);
    const reference = await post(server.url, "resources/read", { uri: "skill://notes-helper/references/tools.md" });
    expect(reference.body.result.contents[0].text).toContain("delete_note");
  });
});
