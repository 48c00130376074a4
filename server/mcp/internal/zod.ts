/** Small zod helpers shared by the definition helpers in `utils/`. */
import { z } from "zod";
import { clip } from "./text";

/** A zod object schema, or just its shape (`{ note_id: z.string() }`). */
export type ObjectInput = z.ZodRawShape | z.ZodType<Record<string, unknown>>;

export type InputOf<Input> = Input extends z.ZodType
  ? z.output<Input>
  : Input extends z.ZodRawShape
    ? z.output<z.ZodObject<Input>>
    : never;

/**
 * The zod schema of a definition's input, given as a schema or as its shape (none: an object without properties).
 * @example const input = objectSchema({ note_id: z.string() }); // z.object({ note_id: z.string() })
 */
export function objectSchema(input: ObjectInput | undefined): z.ZodType<Record<string, unknown>> {
  return input instanceof z.ZodType ? input : z.object(input ?? {});
}

/** At most this many issues are described; the rest are counted. */
const MAX_ISSUES = 5;

/**
 * `note_id: Invalid input: expected string, received number; …`: short for a model, bounded whatever the client sent.
 * @example throw invalidParams(`Invalid arguments for prompt "${name}": ${describeIssues(parsed.error)}`);
 */
export function describeIssues(error: z.ZodError): string {
  const described = error.issues
    .slice(0, MAX_ISSUES)
    .map((issue) => `${clip(issue.path.join("."), 100) || "(arguments)"}: ${clip(issue.message)}`);
  const more = error.issues.length - described.length;
  return described.join("; ") + (more > 0 ? `; and ${more} more` : "");
}
