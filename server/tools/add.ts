import { z } from "zod";

/** The smallest useful tool: typed input, structured output. */
export default defineTool({
  name: "add",
  title: "Add two numbers",
  description: "Adds two numbers and returns their sum.",
  input: { a: z.number().describe("First number"), b: z.number().describe("Second number") },
  output: z.object({ sum: z.number() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ a, b }) => ({ sum: a + b }),
});
