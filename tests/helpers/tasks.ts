/** The tasks extension from the client's side: declaring it, creating a task, polling it. */
import { expect } from "vitest";
import { post, type Json, type RpcOptions } from "./rpc";

export const TASKS = { "io.modelcontextprotocol/tasks": {} };
/** Client capabilities: form elicitation and the tasks extension. */
export const WITH_TASKS = { elicitation: { form: {} }, extensions: TASKS };

/** Task ids no store may see: separators, a path, a space, and far too long. */
export const MALFORMED_TASK_IDS = ["a/b", "../x", "x y", "task:x", "t".repeat(300)];

/** Calls `tool` declaring the tasks extension; asserts a task came back and returns it. */
export async function createTask(url: string, tool: string, args: Json, options: RpcOptions = {}): Promise<Json> {
  const result = await post(
    url,
    "tools/call",
    { name: tool, arguments: args },
    { capabilities: WITH_TASKS, ...options },
  );
  expect(result.body.result?.resultType, JSON.stringify(result.body)).toBe("task");
  return result.body.result;
}

/** A tasks/* request, declaring the extension (`post` sends Mcp-Name = the task id, as the extension asks). */
export const taskRequest = (
  url: string,
  method: "tasks/get" | "tasks/update" | "tasks/cancel",
  params: Json,
  options: RpcOptions = {},
) => post(url, method, params, { capabilities: WITH_TASKS, ...options });

/**
 * Polls tasks/get until the task's status is one of `statuses`; returns the task. `timeoutMs` is a
 * generous bound on "gets there at all" (a loaded machine is slow), and missing it fails loudly.
 */
export async function waitForStatus(
  url: string,
  taskId: string,
  statuses: string[],
  options: RpcOptions & { timeoutMs?: number } = {},
): Promise<Json> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await taskRequest(url, "tasks/get", { taskId }, options);
    if (body.error) throw new Error(`tasks/get: ${JSON.stringify(body.error)}`);
    if (statuses.includes(body.result.status)) return body.result;
    if (Date.now() > deadline)
      throw new Error(
        `Task ${taskId} is still ${body.result.status} after ${timeoutMs} ms, not ${statuses.join(" or ")}.`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
