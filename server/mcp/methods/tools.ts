/** `tools/list` and `tools/call`. */
import type { McpContext } from "../context";
import { invalidParams } from "../errors";
import { isPlainObject } from "../jsonrpc";
import { registry } from "../registry";
import { listResult } from "./list-result";
import type { MethodResult } from "./types";

const descriptors = registry.tools.map((tool) => tool.descriptor);

export const listTools = (mcp: McpContext): MethodResult => listResult("tools", descriptors, mcp);

export async function callTool(mcp: McpContext): Promise<MethodResult> {
  const name = mcp.params.name;
  if (typeof name !== "string") throw invalidParams("tools/call requires params.name (a string)");
  const tool = registry.toolsByName.get(name);
  if (!tool) throw invalidParams(`Unknown tool: ${name}`);
  const args = mcp.params.arguments;
  if (args !== undefined && !isPlainObject(args)) throw invalidParams("params.arguments must be an object");
  return tool.call(args ?? {}, mcp);
}
