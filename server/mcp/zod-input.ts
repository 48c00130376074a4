/** Small zod helpers shared by the definition helpers in `utils/`. */
import { z } from "zod";

/** A zod object schema, or just its shape (`{ note_id: z.string() }`). */
export type ObjectInput = z.ZodRawShape | z.ZodType<Record<string, unknown>>;

export type InputOf<Input> = Input extends z.ZodType
  ? z.output<Input>
  : Input extends z.ZodRawShape
    ? z.output<z.ZodObject<Input>>
    : never;

export function objectSchema(input: ObjectInput | undefined): z.ZodType<Record<string, unknown>> {
  if (input === undefined) return z.object({});
  return input instanceof z.ZodType ? input : z.object(input as z.ZodRawShape);
}

/** `note_id: Invalid input: expected string, received number; count: Too small` — short enough for a model to act on. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "(arguments)"}: ${issue.message}`).join("; ");
}
