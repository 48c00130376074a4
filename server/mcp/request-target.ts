/**
 * What a request acts on: the tool or prompt `name`, or the resource `uri`. One place for
 * it, used by the `Mcp-Name` check, the `requestState` binding and the entry lookup.
 */
import { INPUT_REQUIRED_METHODS } from "./protocol";

export interface RequestTarget {
  readonly field: "name" | "uri";
  /** Untrusted: a string when the request is well-formed. */
  readonly value: unknown;
}

/** The target of tools/call, prompts/get and resources/read; undefined for every other method. */
export function targetOf(method: string, params: Readonly<Record<string, unknown>>): RequestTarget | undefined {
  if (!INPUT_REQUIRED_METHODS.has(method)) return undefined;
  return method === "resources/read" ? { field: "uri", value: params.uri } : { field: "name", value: params.name };
}
