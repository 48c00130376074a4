/** `tools/list` and `tools/call`. */
import { useMcpConfig } from "../config";
import type { McpContext } from "../context";
import { invalidParams } from "../errors";
import { isPlainObject } from "../jsonrpc";
import { paginate } from "../pagination";
import { registry } from "../registry";
import type { MethodResult } from "./types";

const descriptors = registry.tools.map((tool) => tool.descriptor);

export function listTools(mcp: McpContext): MethodResult {
  const config = useMcpConfig();
  const page = paginate(descriptors, mcp.params.cursor, config.pageSize, "tools");
  return { tools: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), ...config.listCache };
}

/** The tool a `tools/call` names; -32602 for a missing or unknown name. */
export function requireTool(params: Readonly<Record<string, unknown>>) {
  const name = params.name;
  if (typeof name !== "string") throw invalidParams("tools/call requires params.name (a string)");
  const tool = registry.toolsByName.get(name);
  if (!tool) throw invalidParams(`Unknown tool: ${name}`);
  return tool;
}

export async function callTool(mcp: McpContext): Promise<MethodResult> {
  const tool = requireTool(mcp.params);
  const args = mcp.params.arguments;
  if (args !== undefined && !isPlainObject(args)) throw invalidParams("params.arguments must be an object");
  return tool.call(args ?? {}, mcp);
}
