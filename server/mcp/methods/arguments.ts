/** `params.arguments` of tools/call and prompts/get: absent means none; anything but an object is -32602. */
import type { McpContext } from "../context";
import { invalidParams } from "../errors";
import { isPlainObject } from "../internal/basics";

export function requireArguments(mcp: McpContext): Record<string, unknown> {
  const args = mcp.params.arguments;
  if (args === undefined) return {};
  if (!isPlainObject(args)) throw invalidParams("params.arguments must be an object");
  return args;
}
