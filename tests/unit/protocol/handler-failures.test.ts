/** Behaviours that need a misbehaving handler (tests/fixtures), in-process. */
import { beforeAll, expect, it } from "vitest";
import { createTestServer, type TestClient, type TestServer } from "../../helpers/in-process";
import { FIXTURES } from "./flows";

let server: TestServer;
let client: TestClient;
beforeAll(async () => {
  server = await createTestServer(FIXTURES);
  client = server.connect();
});

it("turns an exception in a tool into an isError result with a reference; the details stay in the log", async () => {
  const result = await client.request("tools/call", { name: "fails_unexpectedly", arguments: {} });
  expect(result.status).toBe(200);
  expect(result.body.result.isError).toBe(true);
  const text: string = result.body.result.content[0].text;
  const reference = /\(reference ([0-9a-f-]{36})\)/.exec(text)?.[1];
  expect(reference).toBeDefined();
  expect(text).not.toContain("hunter2");
  await expect.poll(() => server.logs()).toContain(`tool \\"fails_unexpectedly\\" threw (reference ${reference})`);
  expect(server.logs()).toContain("hunter2");
});

it("answers inputRequired() outside tools/call, prompts/get and resources/read with -32603, and logs the mistake", async () => {
  const result = await client.request("completion/complete", {
    ref: { type: "ref/prompt", name: "zz_asks_in_completion" },
    argument: { name: "topic", value: "x" },
  });
  expect(result.status).toBe(500);
  expect(result.body.error).toEqual({ code: -32603, message: "Internal error" });
  await expect
    .poll(() => server.logs())
    .toMatch(/programming error: inputRequired\(\) called while serving completion\/complete/);
});

it("answers a value the tool cannot represent (a sum that overflows to Infinity) with an isError message, not a crash", async () => {
  const result = await client.request("tools/call", { name: "structured_sum", arguments: { a: 1e308, b: 1e308 } });
  expect(result.status).toBe(200);
  expect(result.body.result).toMatchObject({
    isError: true,
    content: [{ type: "text", text: expect.stringMatching(/produced no valid result: sum: /) }],
  });
  expect(result.body.result.content[0].text).not.toMatch(/reference/);
});

it("keeps each server's log to its own lines, there as soon as written, whichever server of the worker started last", async () => {
  const first = await createTestServer({ definitions: ["tests/fixtures/tools/fails_unexpectedly.ts"] });
  const second = await createTestServer({ definitions: ["tests/fixtures/tools/fails_unexpectedly.ts"] });
  await first.connect().request("tools/call", { name: "fails_unexpectedly", arguments: {} });
  expect(first.logs()).toMatch(/tool \\"fails_unexpectedly\\" threw/);
  expect(second.logs()).not.toMatch(/fails_unexpectedly/);
});
