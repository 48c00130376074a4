/** How a handler reports a failure: a tool returns `toolError(…)`; a prompt or resource throws `invalidArguments(…)`. */
import { invalidParams, toolErrorResult, type McpError, type ToolErrorResult } from "../server/mcp/kit";

/**
 * A failed tool call the model can read and act on (`isError: true`), not a protocol error.
 * @example
 * const note = await getNote(note_id);
 * if (!note) return toolError(`There is no note with id ${note_id}. Call list_notes to see the ids.`);
 */
export const toolError: (message: string) => ToolErrorResult = toolErrorResult;

/**
 * The arguments of a prompt or resource are well-formed but unusable: throw it, and the client gets -32602 with your message.
 * @example
 * const note = await getNote(note_id);
 * if (!note) throw invalidArguments(`There is no note with id ${note_id}`);
 */
export function invalidArguments(message: string): McpError {
  return invalidParams(message);
}
