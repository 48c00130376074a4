/**
 * Every path no other route serves: a plain JSON 404, the same in development, on Node, on Workers
 * and on Vercel: no HTML error page and no stack trace. Routes with a path win over this one.
 */
import { clip } from "../server/mcp/internal/text";

export default defineEventHandler((event) => {
  setResponseStatus(event, 404);
  setResponseHeaders(event, { "content-type": "application/json", "x-content-type-options": "nosniff" });
  // The path is the client's own text: quoted clipped, like every value a client sends.
  return JSON.stringify({ error: "Not found", path: clip(event.path.split("?")[0]!) });
});
