#!/usr/bin/env node
/**
 * Contender: Vercel's mcp-handler 2.x (on the official SDK 2.x), with the benchmark's tools and the
 * SDK's codec. Telemetry off: no tracer is registered, as in the other contenders.
 */
import { createMcpHandler } from "mcp-handler";
import { listen } from "./listen.mjs";
import { registerBenchTools, stateCodec } from "./bench-tools.mjs";

const handler = createMcpHandler(registerBenchTools, {
  serverInfo: { name: "mcp-handler-bench", version: "1.0.0" },
  capabilities: { tools: {} },
  requestState: { verify: stateCodec.verify },
  telemetry: false,
});
listen(handler);
