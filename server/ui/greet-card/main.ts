/** The greeting card: shows `greet_card`'s result, and nothing else; it never calls the server. */
import "../no-eval";
import { App, applyDocumentTheme } from "@modelcontextprotocol/ext-apps";

const app = new App({ name: "greet-card", version: "1.0.0" });
app.ontoolresult = (result) => {
  const card = result.structuredContent as { name?: unknown; message?: unknown } | undefined;
  if (typeof card?.name !== "string" || typeof card.message !== "string") return;
  (document.getElementById("to") as HTMLElement).textContent = card.name;
  (document.getElementById("message") as HTMLElement).textContent = card.message;
};
app.onhostcontextchanged = (context) => context.theme && applyDocumentTheme(context.theme);
await app.connect();
const theme = app.getHostContext()?.theme;
if (theme) applyDocumentTheme(theme);
