/**
 * Shapes what a method returned into a 2026-07-28 result: `resultType` and
 * `_meta["io.modelcontextprotocol/serverInfo"]`, keeping any `_meta` the handler set.
 * (The legacy era's shapes are in legacy.ts.)
 */
import { useMcpConfig } from "./config";
import { META, type InputRequest } from "./protocol";

let serverInfoMeta: Record<string, unknown> | undefined;

/** A copy of `result` with the server's identity in `_meta`. Never mutates: a handler may return the same object every time. */
function withServerInfo(result: Record<string, unknown>): Record<string, unknown> {
  serverInfoMeta ??= { [META.serverInfo]: useMcpConfig().serverInfo };
  const meta = result._meta as Record<string, unknown> | undefined;
  return { ...result, _meta: meta ? { ...meta, ...serverInfoMeta } : serverInfoMeta };
}

export const completeResult = (result: Record<string, unknown>) => withServerInfo({ ...result, resultType: "complete" });

export const inputRequiredResult = (inputRequests: Readonly<Record<string, InputRequest>>, requestState: string) =>
  withServerInfo({ resultType: "input_required", inputRequests, requestState });

/** A task just created (the tasks extension): its `Task` fields, flat, with `resultType: "task"`. */
export const taskResult = (task: Readonly<Record<string, unknown>>) => withServerInfo({ ...task, resultType: "task" });
