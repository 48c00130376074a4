/**
 * Contender: the floor of any Nitro app, built with this project's nitropack (`node-server`
 * preset): read the body, answer a constant JSON-RPC result. Nothing MCP happens here.
 */
import { defineEventHandler, readRawBody, setResponseHeader } from "h3";

const FIXED = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  result: { content: [{ type: "text", text: "Hello, Ada!" }], resultType: "complete" },
});

export default defineEventHandler(async (event) => {
  await readRawBody(event);
  setResponseHeader(event, "content-type", "application/json");
  return FIXED;
});
