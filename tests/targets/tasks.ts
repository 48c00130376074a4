/**
 * The tasks extension end to end, parameterised by target (`tasks-<target>.test.ts`): a task created, polled, asked, answered, cancelled, capped and watched. The stored
 * counter of `counted_job` shows whether, and how often, the work really ran. The rules that need no
 * runtime (who may use tasks/*, malformed ids, owners) are tested in-process: tests/unit/protocol/tasks.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCounter, uniqueKey } from "../helpers/flows";
import { post, type RpcOptions } from "../helpers/rpc";
import type { RunningServer } from "../helpers/server.mjs";
import { TASKS, WITH_TASKS, createTask, taskRequest, waitForStatus } from "../helpers/tasks";
import { hasFeature } from "../helpers/project.mjs";

export function describeTasks(name: string, start: (env?: Record<string, string>) => Promise<RunningServer>) {
  describe(`tasks, ${name}`, () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await start();
    }, 90_000);
    afterAll(() => server?.stop());

    it("declares the extension in server/discover, and not to 2025-era clients", async () => {
      const { body } = await post(server.url, "server/discover", {});
      expect(body.result.capabilities.extensions).toMatchObject(TASKS);
      if (!hasFeature("legacy")) return;
      const legacy = await fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
        }),
      });
      expect((await legacy.json()).result.capabilities.extensions?.["io.modelcontextprotocol/tasks"]).toBeUndefined();
    });

    it("answers with a task at once, readable at once, which completes with the result", async () => {
      const key = uniqueKey();
      const task = await createTask(server.url, "counted_job", { key, steps: 3, delay_ms: 100 });
      expect(task).toMatchObject({ status: "working", ttlMs: expect.any(Number), pollIntervalMs: expect.any(Number) });
      expect(task.taskId).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(task.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(task).not.toHaveProperty("requestState");
      const now = await taskRequest(server.url, "tasks/get", { taskId: task.taskId });
      expect(now.body.result).toMatchObject({ resultType: "complete", taskId: task.taskId });
      const done = await waitForStatus(server.url, task.taskId, ["completed"]);
      expect(done.result).toMatchObject({
        resultType: "complete",
        content: [{ type: "text", text: `Done: counter ${key} is now 1.` }],
      });
      expect(await readCounter(server.url, key)).toBe(1);
    });

    it("parks in input_required with a question mid-way, resumes on tasks/update, never reusing a key", async () => {
      const key = uniqueKey();
      const task = await createTask(server.url, "counted_job", { key, steps: 4, delay_ms: 10, ask: true });
      const parked = await waitForStatus(server.url, task.taskId, ["input_required"]);
      const [wireKey] = Object.keys(parked.inputRequests);
      expect(parked.inputRequests[wireKey!]).toMatchObject({ method: "elicitation/create", params: { mode: "form" } });
      // An answer that does not fit the form: asked again, under a new key.
      await taskRequest(server.url, "tasks/update", {
        taskId: task.taskId,
        inputResponses: { [wireKey!]: { action: "accept", content: { proceed: "yes" } } },
      });
      const again = await waitForStatus(server.url, task.taskId, ["input_required"]);
      const [secondKey] = Object.keys(again.inputRequests);
      expect(secondKey).not.toBe(wireKey);
      // An unknown key is acknowledged and ignored.
      const ignored = await taskRequest(server.url, "tasks/update", {
        taskId: task.taskId,
        inputResponses: { nope: { action: "accept" } },
      });
      expect(ignored.body.result).toEqual({ resultType: "complete", _meta: expect.any(Object) });
      expect((await waitForStatus(server.url, task.taskId, ["input_required"])).inputRequests).toHaveProperty(
        secondKey!,
      );
      await taskRequest(server.url, "tasks/update", {
        taskId: task.taskId,
        inputResponses: { [secondKey!]: { action: "accept", content: { proceed: true } } },
      });
      const done = await waitForStatus(server.url, task.taskId, ["completed"]);
      expect(done.result.content[0].text).toBe(`Done: counter ${key} is now 1.`);
    });

    it("stops the work when cancelled: cancelled at once, and the counter never moves", async () => {
      const key = uniqueKey();
      // 1000 steps of 100 ms: the work cannot finish (and count) before the cancel, however slow the machine.
      const task = await createTask(server.url, "counted_job", { key, steps: 1000, delay_ms: 100 });
      await expect
        .poll(
          async () => (await taskRequest(server.url, "tasks/get", { taskId: task.taskId })).body.result.statusMessage,
        )
        .toMatch(/^step \d+ of 1000$/);
      const ack = await taskRequest(server.url, "tasks/cancel", { taskId: task.taskId });
      expect(ack.body.result).toEqual({ resultType: "complete", _meta: expect.any(Object) });
      expect((await taskRequest(server.url, "tasks/get", { taskId: task.taskId })).body.result.status).toBe(
        "cancelled",
      );
      // Cancelling again, once it has ended, is acknowledged the same way.
      expect((await taskRequest(server.url, "tasks/cancel", { taskId: task.taskId })).body.result).toMatchObject({
        resultType: "complete",
      });
      // The work stops at its next heartbeat (a third of the 30 s heartbeat timeout), and says so.
      await expect
        .poll(() => server.logs(), { timeout: 30_000 })
        .toMatch(new RegExp(`\\[fixture\\] counted_job ${key} cancelled during step \\d+ of 1000`));
      expect((await taskRequest(server.url, "tasks/get", { taskId: task.taskId })).body.result.status).toBe(
        "cancelled",
      );
      expect(await readCounter(server.url, key)).toBe(0);
    }, 60_000);

    it("shows a running task's progress as its status message", async () => {
      // Long enough that it is still running when the poll looks, however slow the machine.
      const task = await createTask(server.url, "counted_job", { key: uniqueKey(), steps: 1000, delay_ms: 100 });
      await expect
        .poll(
          async () => (await taskRequest(server.url, "tasks/get", { taskId: task.taskId })).body.result.statusMessage,
          { interval: 100 },
        )
        .toMatch(/^step \d+ of 1000$/);
      await taskRequest(server.url, "tasks/cancel", { taskId: task.taskId });
    });

    it.runIf(hasFeature("sign-in"))(
      "caps each principal's active tasks: the next is refused with an isError result, until one ends",
      async () => {
        const own = await start({
          NITRO_MCP_TASK_MAX_ACTIVE: "2",
          NITRO_MCP_AUTH_TOKENS: "alice:alice-token-0123456789,bob:bob-token-0123456789",
        });
        const alice = { headers: { authorization: "Bearer alice-token-0123456789" } };
        const bob = { headers: { authorization: "Bearer bob-token-0123456789" } };
        const call = (key: string, options: RpcOptions) =>
          post(
            own.url,
            "tools/call",
            { name: "counted_job", arguments: { key, steps: 1000, delay_ms: 100 } },
            { capabilities: WITH_TASKS, ...options },
          );
        const waiting = await createTask(
          own.url,
          "counted_job",
          { key: uniqueKey(), steps: 2, delay_ms: 0, ask: true },
          alice,
        );
        const parked = await waitForStatus(own.url, waiting.taskId, ["input_required"], alice);
        // Working tasks run 100 s: they hold their slots for the whole test, however slow the machine.
        const working = await createTask(
          own.url,
          "counted_job",
          { key: uniqueKey(), steps: 1000, delay_ms: 100 },
          alice,
        );

        const refused = await call(uniqueKey(), alice);
        expect(refused.status).toBe(200);
        expect(refused.body.result).toMatchObject({
          resultType: "complete",
          isError: true,
          content: [{ type: "text", text: expect.stringMatching(/^Too many active tasks: you already have 2 /) }],
        });
        expect(refused.body.result).not.toHaveProperty("taskId");
        // Another principal has slots of its own.
        expect((await call(uniqueKey(), bob)).body.result.resultType).toBe("task");

        // A cancelled task frees its slot at once.
        await taskRequest(own.url, "tasks/cancel", { taskId: working.taskId }, alice);
        const next = await call(uniqueKey(), alice);
        expect(next.body.result.resultType).toBe("task");
        expect((await call(uniqueKey(), alice)).body.result.isError).toBe(true);

        // So does a completed one.
        const [wireKey] = Object.keys(parked.inputRequests);
        await taskRequest(
          own.url,
          "tasks/update",
          { taskId: waiting.taskId, inputResponses: { [wireKey!]: { action: "accept", content: { proceed: true } } } },
          alice,
        );
        await waitForStatus(own.url, waiting.taskId, ["completed"], alice);
        expect((await call(uniqueKey(), alice)).body.result.resultType).toBe("task");
        await own.stop();
      },
      90_000,
    );

    it("streams notifications/tasks on subscriptions/listen for the tasks asked for, until they end", async () => {
      const task = await createTask(server.url, "counted_job", { key: uniqueKey(), steps: 3, delay_ms: 200 });
      const listen = await post(
        server.url,
        "subscriptions/listen",
        { notifications: { taskIds: [task.taskId, "not-mine"] } },
        { capabilities: WITH_TASKS, id: "watch-1" },
      );
      const tag = { "io.modelcontextprotocol/subscriptionId": "watch-1" };
      expect(listen.type).toBe("text/event-stream");
      expect(listen.messages[0]).toEqual({
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: { _meta: tag, notifications: { taskIds: [task.taskId] } },
      });
      const updates = listen.messages.filter((message) => message.method === "notifications/tasks");
      expect(updates.at(-1)!.params).toMatchObject({
        taskId: task.taskId,
        status: "completed",
        result: expect.any(Object),
        _meta: tag,
      });
      expect(listen.body.result._meta).toMatchObject(tag);
    });
  });
}
