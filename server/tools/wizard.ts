import { z } from "zod";

const NameForm = defineForm({ name: z.string().min(1).max(60).describe("What should we call you?") });
const ColorForm = defineForm({ color: z.enum(["red", "green", "blue"]).describe("Pick a colour") });
const SizeForm = defineForm({ size: z.int().min(1).max(10).describe("From 1 (tiny) to 10 (huge)") });

/**
 * What the wizard remembers between rounds: sealed in requestState, never in inputResponses.
 * Read through this schema, a state sealed by an older deploy with another shape starts the wizard over.
 */
const Progress = z.object({ name: z.string().optional(), color: z.string().optional() });

const stopped = (step: number, action: string) =>
  `Wizard stopped at step ${step} of 3 because you chose "${action}". Nothing was saved.`;

/** Three questions, one per round. Each round re-runs this function with the answers so far in the state. */
export default defineTool({
  name: "wizard",
  title: "Profile wizard",
  description: "Asks three questions, one at a time (name, colour, size), and summarises the answers.",
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(_args, mcp) {
    const progress = readRequestState(mcp, Progress) ?? {};

    if (progress.name === undefined) {
      const ask = { name: elicitForm("Step 1 of 3: what should we call you?", NameForm) };
      const { name } = readInputResponses(mcp, ask);
      if (!name) return inputRequired(mcp, ask, progress);
      if (name.action !== "accept") return stopped(1, name.action);
      progress.name = name.content.name;
    }

    if (progress.color === undefined) {
      const ask = { color: elicitForm(`Step 2 of 3: ${progress.name}, pick a colour.`, ColorForm) };
      const { color } = readInputResponses(mcp, ask);
      if (!color) return inputRequired(mcp, ask, progress);
      if (color.action !== "accept") return stopped(2, color.action);
      progress.color = color.content.color;
    }

    const ask = { size: elicitForm("Step 3 of 3: how big should it be?", SizeForm) };
    const { size } = readInputResponses(mcp, ask);
    if (!size) return inputRequired(mcp, ask, progress);
    if (size.action !== "accept") return stopped(3, size.action);

    return `All set, ${progress.name}: a ${progress.color} one, size ${size.content.size}.`;
  },
});
