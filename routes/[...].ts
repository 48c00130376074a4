/** Every path no other route serves: a plain JSON 404 on every platform, never an HTML page or a stack trace. */
import { clip } from "../server/mcp/internal/text";

export default defineEventHandler((event) => {
  setResponseStatus(event, 404);
  setResponseHeaders(event, { "content-type": "application/json", "x-content-type-options": "nosniff" });
  // The path is the client's own text: quoted clipped, like every value a client sends.
  return JSON.stringify({ error: "Not found", path: clip(event.path.split("?")[0]!) });
});
