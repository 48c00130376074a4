/**
 * Errors an author may throw from a prompt or resource handler.
 * (Tools report failures with `toolError(...)` instead: the model reads those.)
 */
import { invalidParams } from "../server/mcp/errors";

/**
 * The arguments are well-formed but unusable: answered as JSON-RPC -32602 with your message.
 *
 * @example
 * if (!note) throw invalidArguments(`There is no note with id ${note_id}`);
 */
export function invalidArguments(message: string) {
  return invalidParams(message);
}
