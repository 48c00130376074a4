/**
 * Tasks are bounded, checked where they are stored (`describeBoundedTasks`, run on each store that two processes share:
 * `bounded-tasks-*.test.ts`), each record read straight from the store. A record keeps the validated arguments (an unknown
 * 64 KB key is not there, nor the request's `_meta`), and none once the task has ended; a refused task leaves no record; a
 * malformed task id is -32602, never 503.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { uniqueKey } from "../helpers/flows";
import { post } from "../helpers/rpc";
import type { RunningServer } from "../helpers/server.mjs";
import { MALFORMED_TASK_IDS, WITH_TASKS, createTask, taskRequest, waitForStatus } from "../helpers/tasks";

/** The cap every store is started with: two active tasks per principal. */
export const MAX_ACTIVE = { NITRO_MCP_TASK_MAX_ACTIVE: "2" };
const JUNK = "x".repeat(64 * 1024);

/** What a store holds: the stored task records by id (as stored, JSON text). */
export interface StoredTasks {
  records(): Promise<Map<string, string>>;
}

/** The bounded-tasks cases on two servers sharing a store, as `setup` starts them, and what the store holds. */
export function describeBoundedTasks(
  name: string,
  setup: () => Promise<{ a: RunningServer; b: RunningServer; stored: StoredTasks; stop: () => Promise<void> }>,
) {
  describe(`bounded tasks, ${name}`, () => {
    let a: RunningServer;
    let b: RunningServer;
    let stored: StoredTasks;
    let stop: () => Promise<void>;
    beforeAll(async () => {
      ({ a, b, stored, stop } = await setup());
    }, 180_000);
    afterAll(() => stop?.());

    const record = async (taskId: string) => JSON.parse((await stored.records()).get(taskId)!);
    const longJob = (server: RunningServer, extra: object = {}) =>
      post(
        server.url,
        "tools/call",
        { name: "counted_job", arguments: { key: uniqueKey(), steps: 100, delay_ms: 100, ...extra } },
        { capabilities: WITH_TASKS },
      );

    it("stores the validated arguments (no unknown key, no _meta), and none once the task has ended", async () => {
      const key = uniqueKey();
      const created = await post(
        a.url,
        "tools/call",
        { name: "counted_job", arguments: { key, steps: 100, delay_ms: 100, unknown: JUNK } },
        { capabilities: { ...WITH_TASKS, experimental: { blob: JUNK } }, metaExtra: { "example.com/junk": JUNK } },
      );
      const { taskId } = created.body.result;
      const text = (await stored.records()).get(taskId)!;
      expect(text.length).toBeLessThan(2048);
      expect(text).not.toContain("xxxxxxxx");
      const kept = JSON.parse(text);
      expect(kept.arguments).toEqual({ key, steps: 100, delay_ms: 100, ask: false });
      expect(kept.caller.clientCapabilities).toEqual({
        elicitation: { form: {} },
        extensions: { "io.modelcontextprotocol/tasks": {} },
      });

      await taskRequest(a.url, "tasks/cancel", { taskId });
      expect(await record(taskId)).toMatchObject({ status: "cancelled", arguments: {} });
    });

    it("refuses a task past the cap on any instance, storing nothing; a cancel frees a slot", async () => {
      // Each test file's servers are shared: start from no active task of this (anonymous) principal.
      for (const [taskId, text] of await stored.records()) {
        if (["working", "input_required"].includes(JSON.parse(text).status))
          await taskRequest(a.url, "tasks/cancel", { taskId });
      }
      const first = (await longJob(a)).body.result;
      const second = (await longJob(b)).body.result;
      expect([first.resultType, second.resultType]).toEqual(["task", "task"]);
      const before = [...(await stored.records()).keys()].sort();
      for (const server of [a, b]) {
        const refused = await longJob(server);
        expect(refused.body.result).toMatchObject({
          isError: true,
          content: [{ text: expect.stringMatching(/^Too many active tasks/) }],
        });
      }
      expect([...(await stored.records()).keys()].sort()).toEqual(before);

      await taskRequest(b.url, "tasks/cancel", { taskId: first.taskId });
      const third = (await longJob(a)).body.result;
      expect(third.resultType).toBe("task");
      for (const taskId of [second.taskId, third.taskId]) await taskRequest(a.url, "tasks/cancel", { taskId });
    });

    it("refuses malformed task ids with -32602 (HTTP 200), never 503, and logs no outage", async () => {
      for (const taskId of MALFORMED_TASK_IDS) {
        for (const method of ["tasks/get", "tasks/cancel"] as const) {
          const result = await taskRequest(a.url, method, { taskId });
          expect(result.status, `${method} ${taskId}`).toBe(200);
          expect(result.body.error.code, `${method} ${taskId}`).toBe(-32602);
        }
      }
      expect(a.logs()).not.toMatch(/storage unavailable/i);
    });

    it("still runs a task on its stored arguments to the end", async () => {
      const key = uniqueKey();
      const task = await createTask(b.url, "counted_job", { key, steps: 2, delay_ms: 0, unknown: JUNK });
      const done = await waitForStatus(a.url, task.taskId, ["completed"]);
      expect(done.result.content[0].text).toBe(`Done: counter ${key} is now 1.`);
      expect((await record(task.taskId)).arguments).toEqual({});
    });

    it("leaves a parked task's record as it was on an update that answers nothing it asked (`__proto__` and `constructor` too)", async () => {
      const task = await createTask(a.url, "counted_job", { key: uniqueKey(), steps: 2, delay_ms: 0, ask: true });
      // Parked an hour otherwise, holding one of the principal's two active tasks.
      onTestFinished(async () => void (await taskRequest(b.url, "tasks/cancel", { taskId: task.taskId })));
      await waitForStatus(a.url, task.taskId, ["input_required"]);
      const before = (await stored.records()).get(task.taskId);
      // Own keys, as a client's JSON has them (an object literal's `__proto__` would set its prototype instead).
      const inputResponses = JSON.parse(
        '{"nope":{},"__proto__":{"action":"accept"},"constructor":{"action":"accept"}}',
      );
      const ignored = await taskRequest(b.url, "tasks/update", { taskId: task.taskId, inputResponses });
      expect(ignored.body.result).toEqual({ resultType: "complete", _meta: expect.any(Object) });
      expect((await stored.records()).get(task.taskId)).toBe(before);
    });
  });
}
