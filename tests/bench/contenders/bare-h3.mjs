#!/usr/bin/env node
/** Contender, the ceiling: a bare h3 app on node:http answering POST /mcp with a fixed JSON-RPC result. */
import { createServer } from "node:http";
import { createApp, createRouter, defineEventHandler, setResponseHeader, toNodeListener } from "h3";

const FIXED = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  result: { content: [{ type: "text", text: "Hello, Ada!" }], resultType: "complete" },
});
const app = createApp();
app.use(
  createRouter().post(
    "/mcp",
    defineEventHandler((event) => {
      setResponseHeader(event, "content-type", "application/json");
      return FIXED;
    }),
  ),
);
const server = createServer(toNodeListener(app)).listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`Listening on http://127.0.0.1:${server.address().port}`);
});
