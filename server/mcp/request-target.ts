/**
 * What a request acts on: the tool or prompt `name`, or the resource `uri`, and the definition
 * registered under it. Resolved once per request; the `Mcp-Name` check, the `requestState`
 * binding and the methods all read the result from `mcp.target`.
 */
import type { RequestTarget } from "./context";
import { INPUT_REQUIRED_METHODS, nameFieldOf } from "./protocol";
import { registry } from "./registry";

/** The target of the request, or undefined when the method has none or the body names it with something other than a string. */
export function resolveTarget(method: string, params: Readonly<Record<string, unknown>>): RequestTarget | undefined {
  if (!INPUT_REQUIRED_METHODS.has(method)) return undefined;
  const field = nameFieldOf(method);
  const name = field && params[field];
  if (typeof name !== "string") return undefined;
  if (method === "tools/call") return { field: "name", name, entry: registry.toolsByName.get(name), variables: {} };
  if (method === "prompts/get") return { field: "name", name, entry: registry.promptsByName.get(name), variables: {} };
  const found = registry.findResource(name);
  return { field: "uri", name, entry: found?.entry, variables: found?.variables ?? {} };
}
