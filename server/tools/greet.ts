import { z } from "zod";

const GREETINGS: Record<string, string> = { en: "Hello", fr: "Bonjour", de: "Hallo", es: "Hola" };

/**
 * `x-mcp-header`: the client mirrors `locale` into the `Mcp-Param-Locale` header, so a
 * gateway can route on it without parsing the body. The server checks that both agree.
 */
export default defineTool({
  name: "greet",
  title: "Greet someone",
  description: "Greets a person by name in English, French, German or Spanish.",
  input: {
    name: z.string().min(1).describe("Who to greet"),
    locale: z.enum(["en", "fr", "de", "es"]).default("en").describe("Language").meta({ "x-mcp-header": "Locale" }),
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ name, locale }) => `${GREETINGS[locale]}, ${name}!`,
});
