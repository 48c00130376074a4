/**
 * Contender: the floor of any JSON-RPC server on Nitro, in the same build as the plain floor: read the
 * body, parse it, check `jsonrpc`, `id` and `method`, and answer a fixed result with the request's id.
 * The least work an MCP server must do per request; nothing else (no `_meta`, no headers, no tool).
 */
import { defineEventHandler, readRawBody, setResponseHeader, setResponseStatus } from "h3";

const RESULT = { content: [{ type: "text", text: "Hello, Ada!" }], resultType: "complete" };

export default defineEventHandler(async (event) => {
  const message = JSON.parse((await readRawBody(event)) ?? "null");
  setResponseHeader(event, "content-type", "application/json");
  const valid =
    message?.jsonrpc === "2.0" &&
    (typeof message.id === "string" || typeof message.id === "number") &&
    typeof message.method === "string";
  if (!valid) {
    setResponseStatus(event, 400);
    return JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } });
  }
  return JSON.stringify({ jsonrpc: "2.0", id: message.id, result: RESULT });
});
