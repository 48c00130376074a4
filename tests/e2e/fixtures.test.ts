/** Behaviours that need a misbehaving handler: run against the fixture build (tests/fixtures). */
import { afterAll, beforeAll, expect, it } from "vitest";
import { post } from "../helpers/rpc";
import { startServer, type RunningServer } from "../helpers/server.mjs";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ output: ".output-conformance" });
});
afterAll(() => server.stop());

it("turns an exception in a tool into an isError result with a reference; the details stay in the log", async () => {
  const result = await post(server.url, "tools/call", { name: "zz_throws", arguments: {} });
  expect(result.status).toBe(200);
  expect(result.body.result.isError).toBe(true);
  const text: string = result.body.result.content[0].text;
  const reference = /\(reference ([0-9a-f-]{36})\)/.exec(text)?.[1];
  expect(reference).toBeDefined();
  expect(text).not.toContain("hunter2");
  expect(server.logs()).toContain(`tool "zz_throws" threw (reference ${reference})`);
  expect(server.logs()).toContain("hunter2");
});

it("answers inputRequired() outside tools/call, prompts/get and resources/read with -32603, and logs the mistake", async () => {
  const result = await post(server.url, "completion/complete", {
    ref: { type: "ref/prompt", name: "zz_asks_in_completion" },
    argument: { name: "topic", value: "x" },
  });
  expect(result.status).toBe(500);
  expect(result.body.error).toEqual({ code: -32603, message: "Internal error" });
  expect(server.logs()).toMatch(/programming error: inputRequired\(\) called while serving completion\/complete/);
});
