/** The server card's settings (read with `useSettings`; their table is in this folder's README). */
import { optionalText, setting, text } from "../../mcp/settings";

export const SETTINGS = {
  /** What the server does, in at most 100 characters: the description in its server card */
  serverDescription: setting({
    env: "NITRO_MCP_SERVER_DESCRIPTION",
    default: "",
    shownDefault: "package.json description",
    text: true,
    parse: (raw): string => {
      const value = text(raw);
      if (value.length > 100)
        throw new Error("NITRO_MCP_SERVER_DESCRIPTION must be at most 100 characters (the server card's limit)");
      return value;
    },
  }),
  /** The server card's name, reverse-DNS namespace/name (e.g. com.example/weather); default: the endpoint's host reversed, then the server name */
  serverCardName: setting({
    env: "NITRO_MCP_SERVER_CARD_NAME",
    default: "",
    shownDefault: "derived from the endpoint's host",
    text: true,
    parse: (raw): string | undefined => {
      const value = optionalText(raw);
      if (value !== undefined && !(value.length <= 200 && /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(value))) {
        throw new Error(
          "NITRO_MCP_SERVER_CARD_NAME must look like com.example/name (letters, digits, dots and dashes, one slash, at most 200 characters)",
        );
      }
      return value;
    },
  }),
} as const;
