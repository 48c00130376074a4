import { z } from "zod";

const Brief = defineForm({
  topic: z.string().min(1).describe("What is the note about?"),
  tone: z.enum(["plain", "cheerful", "formal"]).default("plain").describe("Tone of voice"),
});

/** A prompt that asks the person first (prompts/get can answer input_required too). */
export default definePrompt({
  name: "write_note",
  title: "Write a note",
  description: "Asks you for a topic and a tone, then prompts the model to draft a short note.",
  run(_args, mcp) {
    const ask = { brief: elicitForm("What should the note be about?", Brief) };
    const { brief } = readInputResponses(mcp, ask);
    if (!brief) return inputRequired(mcp, ask);
    if (brief.action !== "accept") return "Draft a short, friendly note with no particular topic.";
    return `Draft a short ${brief.content.tone} note about: ${brief.content.topic}`;
  },
});
