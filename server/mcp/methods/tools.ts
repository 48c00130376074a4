/** `tools/list` and `tools/call`. */
import type { McpContext } from "../context";
import { invalidParams } from "../errors";
import { registry } from "../registry";
import { useTaskRunner } from "../features";
import { listResult } from "./list-result";
import { requireArguments } from "./arguments";
import type { MethodResult } from "./types";

const descriptors = registry.tools.map((tool) => tool.descriptor);

export const listTools = (mcp: McpContext): MethodResult => listResult("tools", descriptors, mcp);

export async function callTool(mcp: McpContext): Promise<MethodResult> {
  if (!mcp.target) throw invalidParams("tools/call requires params.name (a string)");
  const tool = mcp.target.entry;
  if (tool?.kind !== "tool") throw invalidParams(`Unknown tool: ${mcp.target.name}`);
  const args = requireArguments(mcp);
  // A tool with `task` exists only with the tasks feature: the server refuses to start otherwise (plugins/mcp-startup.ts).
  return tool.task ? useTaskRunner()!({ ...tool, task: tool.task }, args, mcp) : tool.call(args, mcp);
}
