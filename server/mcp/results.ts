/**
 * Shapes what a method returned into a 2026-07-28 result: `resultType` and
 * `_meta["io.modelcontextprotocol/serverInfo"]`, keeping any `_meta` the handler set.
 * (The legacy era's shapes are the legacy feature's.)
 */
import { useMcpConfig } from "./config";
import { META, type InputRequest } from "./protocol";

let serverInfoMeta: Record<string, unknown> | undefined;
const serverInfo = () => (serverInfoMeta ??= { [META.serverInfo]: useMcpConfig().serverInfo });

/** A copy of `result` with its `resultType` and the server's identity in `_meta`. Never mutates: a handler may return the same object every time. */
function shaped(result: Readonly<Record<string, unknown>>, resultType: string): Record<string, unknown> {
  const meta = result._meta as Record<string, unknown> | undefined;
  // Object.assign rather than `{ ...result, resultType }`: with Node 20's V8, each property written
  // after a spread costs about a microsecond, on every response.
  return Object.assign({}, result, { resultType, _meta: meta ? Object.assign({}, meta, serverInfo()) : serverInfo() });
}

export const completeResult = (result: Readonly<Record<string, unknown>>) => shaped(result, "complete");

export const inputRequiredResult = (inputRequests: Readonly<Record<string, InputRequest>>, requestState: string) => ({
  resultType: "input_required",
  inputRequests,
  requestState,
  _meta: serverInfo(),
});

/** A task just created (the tasks extension): its `Task` fields, flat, with `resultType: "task"`. */
export const taskResult = (task: Readonly<Record<string, unknown>>) => shaped(task, "task");
