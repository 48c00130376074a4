/** `completion/complete`: suggestions for prompt arguments and resource-template variables. */
import type { McpContext } from "../context";
import type { Completer } from "../entries";
import { invalidParams } from "../errors";
import { isPlainObject } from "../internal/basics";
import { registry } from "../registry";
import type { MethodResult } from "./types";

const MAX_VALUES = 100;

function completerFor(ref: unknown, argument: string): Completer | undefined {
  if (!isPlainObject(ref)) throw invalidParams("params.ref must be an object");
  if (ref.type === "ref/prompt") {
    if (typeof ref.name !== "string") throw invalidParams("A prompt name (string) is required");
    const prompt = registry().promptsByName.get(ref.name);
    if (!prompt) throw invalidParams(`Unknown prompt: ${ref.name}`);
    if (!prompt.descriptor.arguments?.some((arg) => arg.name === argument)) {
      throw invalidParams(`Prompt "${prompt.descriptor.name}" has no argument "${argument}"`);
    }
    return prompt.completers[argument];
  }
  if (ref.type === "ref/resource") {
    if (typeof ref.uri !== "string") throw invalidParams("ref/resource requires a uri");
    const template = registry().findTemplate(ref.uri);
    if (!template) throw invalidParams(`Unknown resource template: ${ref.uri}`, { uri: ref.uri });
    if (!template.template!.variables.includes(argument))
      throw invalidParams(`Template "${ref.uri}" has no variable "${argument}"`);
    return template.completers[argument];
  }
  throw invalidParams('params.ref.type must be "ref/prompt" or "ref/resource"');
}

export async function complete(mcp: McpContext): Promise<MethodResult> {
  const { ref, argument, context } = mcp.params;
  if (!isPlainObject(argument) || typeof argument.name !== "string" || typeof argument.value !== "string") {
    throw invalidParams("params.argument must be { name: string, value: string }");
  }
  // Absent and null alike, at either level: a client may spell an unset member either way.
  const resolved = context == null ? {} : isPlainObject(context) ? (context.arguments ?? {}) : undefined;
  if (!isPlainObject(resolved) || Object.values(resolved).some((value) => typeof value !== "string"))
    throw invalidParams("params.context must be { arguments?: { [name: string]: string } }");
  const completer = completerFor(ref, argument.name);
  const values = completer ? await completer(argument.value, resolved as Record<string, string>, mcp) : [];
  return {
    completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES },
  };
}
