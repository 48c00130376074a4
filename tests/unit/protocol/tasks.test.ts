/**
 * The tasks extension's rules that need no runtime, in-process: who may use tasks/*, which task ids reach
 * a store, the mirrored task id. A task's life (background work, questions, cancellation, progress, caps,
 * owners, notifications) runs on every target and on shared Redis: tests/targets/tasks.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  createTestServer,
  type Json,
  type RequestOptions,
  type TestClient,
  type TestServer,
} from "../../helpers/in-process";
import { MALFORMED_TASK_IDS, TASKS, WITH_TASKS } from "../../helpers/tasks";
import { FIXTURES, readCounter, uniqueKey } from "./flows";
import { hasFeature } from "../../helpers/project.mjs";

let server: TestServer;
let client: TestClient;
beforeAll(async () => {
  server = await createTestServer(FIXTURES);
  client = server.connect({ capabilities: WITH_TASKS });
});

const taskRequest = (method: string, params: Json, options: RequestOptions = {}) =>
  client.request(method, params, options);

describe("tasks, the rules", () => {
  it("creates a task for a client that declares the extension, and runs it to completion", async () => {
    const key = uniqueKey();
    const task = await client.callTool("counted_job", { key, steps: 1, delay_ms: 0 });
    expect(task).toMatchObject({
      resultType: "task",
      status: "working",
      taskId: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
    });
    await expect
      .poll(async () => (await taskRequest("tasks/get", { taskId: task.taskId })).body.result.status)
      .toBe("completed");
    expect(await readCounter(client, key)).toBe(1);
  });

  it("runs as a plain call for a client that did not declare the extension on this request", async () => {
    const key = uniqueKey();
    const result = await server.connect().callTool("counted_job", { key, steps: 1, delay_ms: 0 });
    expect(result).toMatchObject({ resultType: "complete", content: [{ text: `Done: counter ${key} is now 1.` }] });
  });

  it("refuses tasks/* to a client that did not declare the extension (-32021, 400)", async () => {
    const undeclared = await server.connect().request("tasks/get", { taskId: "some-task" });
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: TASKS } },
    });
  });

  it("answers an unknown task with -32602, and tasks/result and tasks/list with -32601", async () => {
    expect((await taskRequest("tasks/get", { taskId: "no-such-task" })).body.error.code).toBe(-32602);
    for (const method of ["tasks/result", "tasks/list"])
      expect((await taskRequest(method, {})).body.error.code).toBe(-32601);
  });

  it("refuses an Mcp-Name that is not the task id (-32020)", async () => {
    const task = await client.callTool("counted_job", { key: uniqueKey(), steps: 1, delay_ms: 0 });
    const result = await taskRequest("tasks/get", { taskId: task.taskId }, { headers: { "mcp-name": "another-task" } });
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe(-32020);
  });

  it.each(MALFORMED_TASK_IDS.map((taskId) => [taskId.length > 20 ? `${taskId.slice(0, 20)}…` : taskId, taskId]))(
    "refuses the malformed task id %s on every tasks/* method (-32602, HTTP 200), before any store sees it",
    async (_, taskId) => {
      for (const [method, extra] of [
        ["tasks/get", {}],
        ["tasks/update", { inputResponses: {} }],
        ["tasks/cancel", {}],
      ] as const) {
        const result = await taskRequest(method, { taskId, ...extra });
        expect(result.status, method).toBe(200);
        expect(result.body.error, method).toMatchObject({
          code: -32602,
          message: expect.stringMatching(/^Invalid task id/),
        });
      }
      expect(server.logs()).not.toMatch(/storage unavailable/i);
    },
  );

  it("refuses to watch a malformed task id (-32602), and tasks at all for a client without the extension (-32021)", async () => {
    expect((await taskRequest("subscriptions/listen", { notifications: { taskIds: ["a/b"] } })).body.error.code).toBe(
      -32602,
    );
    expect(
      (await server.connect().request("subscriptions/listen", { notifications: { taskIds: ["x"] } })).body.error.code,
    ).toBe(-32021);
  });

  it.runIf(hasFeature("sign-in"))(
    "keeps a task to its owner: another principal gets the answer for no task at all",
    async () => {
      const own = await createTestServer({
        ...FIXTURES,
        env: { NITRO_MCP_AUTH_TOKENS: "alice:alice-token-0123456789,bob:bob-token-0123456789" },
      });
      const alice = own.connect({
        capabilities: WITH_TASKS,
        headers: { authorization: "Bearer alice-token-0123456789" },
      });
      const bob = own.connect({ capabilities: WITH_TASKS, headers: { authorization: "Bearer bob-token-0123456789" } });
      const task = await alice.callTool("counted_job", { key: uniqueKey(), steps: 1, delay_ms: 0 });
      const theirs = await bob.request("tasks/get", { taskId: task.taskId });
      const nobodys = await bob.request("tasks/get", { taskId: "no-such-task" });
      expect(theirs.body.error.code).toBe(-32602);
      expect({ ...theirs.body.error, message: theirs.body.error.message.replace(task.taskId, "no-such-task") }).toEqual(
        nobodys.body.error,
      );
      expect((await bob.request("tasks/cancel", { taskId: task.taskId })).body.error.code).toBe(-32602);
      expect((await alice.request("tasks/get", { taskId: task.taskId })).body.result.taskId).toBe(task.taskId);
    },
  );
});
