import { z } from "zod";

/** A greeting card (server/ui/greet-card/): the UI only shows the result; text-only clients read the same words. */
export default defineTool({
  name: "greet_card",
  title: "Greeting card",
  description:
    "Makes a greeting card for someone: their name and a short message, shown as a card where the client can.",
  input: {
    name: z.string().min(1).max(80).describe("Who the card is for"),
    message: z.string().max(200).default("Have a wonderful day!").describe("The card's message"),
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  ui: { resourceUri: "ui://greet-card" },
  run: ({ name, message }) => ({
    content: [{ type: "text", text: `A card for ${name}: “${message}”` }],
    structuredContent: { name, message },
  }),
});
