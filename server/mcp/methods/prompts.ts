/** `prompts/list` and `prompts/get`. */
import type { McpContext } from "../context";
import { invalidParams } from "../errors";
import { isPlainObject } from "../jsonrpc";
import { registry } from "../registry";
import { listResult } from "./list-result";
import type { MethodResult } from "./types";

const descriptors = registry.prompts.map((prompt) => prompt.descriptor);

export const listPrompts = (mcp: McpContext): MethodResult => listResult("prompts", descriptors, mcp);

/** The prompt a `prompts/get` (or a completion reference) names; -32602 for a missing or unknown name. */
export function requirePrompt(name: unknown) {
  if (typeof name !== "string") throw invalidParams("A prompt name (string) is required");
  const prompt = registry.promptsByName.get(name);
  if (!prompt) throw invalidParams(`Unknown prompt: ${name}`);
  return prompt;
}

export async function getPrompt(mcp: McpContext): Promise<MethodResult> {
  const prompt = requirePrompt(mcp.params.name);
  const args = mcp.params.arguments;
  if (args !== undefined && !isPlainObject(args)) throw invalidParams("params.arguments must be an object");
  return prompt.get(args ?? {}, mcp);
}
