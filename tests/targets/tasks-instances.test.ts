/**
 * Tasks across instances sharing Redis: any instance answers for any task, an answer or a cancel
 * received by one reaches the work running on another, and a task whose instance dies turns failed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCounter, uniqueKey } from "../helpers/flows";
import { needs } from "../helpers/programs.mjs";
import { startServer, type RunningServer } from "../helpers/server.mjs";
import { post } from "../helpers/rpc";
import { WITH_TASKS, createTask, taskRequest, waitForStatus } from "../helpers/tasks";
import { startInstancesOnRedis } from "./redis.mjs";

// Short enough that a lost instance is noticed within a test; long enough that a busy machine's
// late timers (beats come every third of it) do not look like a lost instance.
const HEARTBEAT_SECONDS = 5;
const HEARTBEAT_TIMEOUT = { NITRO_MCP_TASK_HEARTBEAT_TIMEOUT_SECONDS: String(HEARTBEAT_SECONDS) };
/** A job of 1000 steps of 100 ms: still running for the whole of any test, however slow the machine. */
const LONG_JOB = { steps: 1000, delay_ms: 100 };

describe("tasks on two instances sharing Redis", needs("redis-server"), () => {
  let instances: Awaited<ReturnType<typeof startInstancesOnRedis>>;
  let a: RunningServer;
  let b: RunningServer;
  beforeAll(async () => {
    instances = await startInstancesOnRedis(HEARTBEAT_TIMEOUT);
    ({ a, b } = instances);
  }, 180_000);
  afterAll(() => instances?.stop());

  it("created on A, polled and answered on B (which runs the next round), finished for A", async () => {
    const key = uniqueKey();
    const task = await createTask(a.url, "counted_job", { key, steps: 4, delay_ms: 20, ask: true });
    const parked = await waitForStatus(b.url, task.taskId, ["input_required"]);
    const [wireKey] = Object.keys(parked.inputRequests);
    await taskRequest(b.url, "tasks/update", {
      taskId: task.taskId,
      inputResponses: { [wireKey!]: { action: "accept", content: { proceed: true } } },
    });
    const done = await waitForStatus(a.url, task.taskId, ["completed"]);
    expect(done.result.content[0].text).toBe(`Done: counter ${key} is now 1.`);
    expect(await readCounter(b.url, key)).toBe(1);
  });

  it("cancelled on B while it runs on A: the work on A stops at its next heartbeat", async () => {
    const key = uniqueKey();
    const task = await createTask(a.url, "counted_job", { key, ...LONG_JOB });
    // Its progress, read on B, shows the work running on A.
    await expect
      .poll(async () => (await taskRequest(b.url, "tasks/get", { taskId: task.taskId })).body.result.statusMessage)
      .toMatch(/^step \d+ of 1000$/);
    await taskRequest(b.url, "tasks/cancel", { taskId: task.taskId });
    expect((await taskRequest(a.url, "tasks/get", { taskId: task.taskId })).body.result.status).toBe("cancelled");
    // The work on A says it stopped; it stopped before counting.
    await expect
      .poll(() => a.logs())
      .toMatch(new RegExp(`\\[fixture\\] counted_job ${key} cancelled during step \\d+ of 1000`));
    expect(await readCounter(a.url, key)).toBe(0);
    expect(a.logs()).not.toMatch(/a round could not finish/);
  }, 40_000);

  it("turns failed, with a reason, when the instance running it dies", async () => {
    const doomed = await startServer({ env: { ...HEARTBEAT_TIMEOUT, REDIS_URL: instances.redis.url } });
    const task = await createTask(doomed.url, "counted_job", { key: uniqueKey(), ...LONG_JOB });
    await waitForStatus(a.url, task.taskId, ["working"]);
    process.kill(doomed.pid, "SIGKILL");
    const failed = await waitForStatus(a.url, task.taskId, ["failed"]);
    expect(failed).toMatchObject({
      status: "failed",
      error: {
        code: -32603,
        message: `The task stopped: the server running it stopped reporting (no heartbeat for ${HEARTBEAT_SECONDS} s)`,
      },
    });
    await doomed.stop();
  }, 40_000);
});

describe("active-task slots that cannot leak", () => {
  const longJob = (url: string) =>
    post(
      url,
      "tools/call",
      { name: "counted_job", arguments: { key: uniqueKey(), ...LONG_JOB } },
      { capabilities: WITH_TASKS },
    );

  it("frees the slot of a task whose instance died, once its heartbeat is lost", async () => {
    const env = { ...HEARTBEAT_TIMEOUT, NITRO_MCP_TASK_MAX_ACTIVE: "1" };
    const instances = await startInstancesOnRedis(env);
    const doomed = await startServer({ env: { ...env, REDIS_URL: instances.redis.url } });
    expect((await longJob(doomed.url)).body.result.resultType).toBe("task");
    expect((await longJob(instances.a.url)).body.result.isError).toBe(true);
    process.kill(doomed.pid, "SIGKILL");
    await expect
      .poll(async () => (await longJob(instances.a.url)).body.result.resultType, { timeout: 30_000, interval: 250 })
      .toBe("task");
    await doomed.stop();
    await instances.stop();
  }, 60_000);

  it("frees the slot of a task that expired", async () => {
    // A TTL of 5 s: the second call comes well before it (the slot is taken), the poll well after.
    const server = await startServer({ env: { NITRO_MCP_TASK_TTL_SECONDS: "5", NITRO_MCP_TASK_MAX_ACTIVE: "1" } });
    expect((await longJob(server.url)).body.result.resultType).toBe("task");
    expect((await longJob(server.url)).body.result.isError).toBe(true);
    await expect
      .poll(async () => (await longJob(server.url)).body.result.resultType, { timeout: 30_000, interval: 250 })
      .toBe("task");
    await server.stop();
  }, 60_000);
});

describe("task lifetime", () => {
  it("deletes a task once its TTL has passed", async () => {
    // A TTL of 5 s: the task is still there when it completes, and gone some time later.
    const server = await startServer({ env: { NITRO_MCP_TASK_TTL_SECONDS: "5" } });
    const task = await createTask(server.url, "counted_job", { key: uniqueKey(), steps: 1, delay_ms: 0 });
    expect(task.ttlMs).toBe(5000);
    await waitForStatus(server.url, task.taskId, ["completed"]);
    await expect
      .poll(async () => (await taskRequest(server.url, "tasks/get", { taskId: task.taskId })).body.error?.code, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(-32602);
    await server.stop();
  }, 60_000);
});
