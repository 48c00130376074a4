/** `prompts/list` and `prompts/get`. */
import type { McpContext } from "../context";
import type { PromptEntry } from "../entries";
import { invalidParams } from "../errors";
import { registry } from "../registry";
import { requireArguments } from "./arguments";
import { listResult } from "./list-result";
import type { MethodResult } from "./types";

const descriptors = registry.prompts.map((prompt) => prompt.descriptor);

export const listPrompts = (mcp: McpContext): MethodResult => listResult("prompts", descriptors, mcp);

/** The prompt a completion reference names; -32602 for a missing or unknown name. */
export function requirePrompt(name: unknown): PromptEntry {
  if (typeof name !== "string") throw invalidParams("A prompt name (string) is required");
  const prompt = registry.promptsByName.get(name);
  if (!prompt) throw invalidParams(`Unknown prompt: ${name}`);
  return prompt;
}

export async function getPrompt(mcp: McpContext): Promise<MethodResult> {
  if (!mcp.target) throw invalidParams("A prompt name (string) is required");
  const prompt = mcp.target.entry;
  if (prompt?.kind !== "prompt") throw invalidParams(`Unknown prompt: ${mcp.target.name}`);
  return prompt.get(requireArguments(mcp), mcp);
}
