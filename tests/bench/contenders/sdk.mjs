#!/usr/bin/env node
/**
 * Contender: the official SDK's stateless server (`@modelcontextprotocol/server` 2.x,
 * `createMcpHandler`, 2026-07-28 only), with the benchmark's tools and the SDK's own codec.
 */
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import { listen } from "./listen.mjs";
import { registerBenchTools, stateCodec } from "./bench-tools.mjs";

const handler = createMcpHandler(
  () =>
    registerBenchTools(
      new McpServer(
        { name: "sdk-bench", version: "1.0.0" },
        { capabilities: { tools: {} }, requestState: { verify: stateCodec.verify } },
      ),
    ),
  { legacy: "reject" },
);
listen((request) => handler.fetch(request));
