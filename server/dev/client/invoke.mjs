/**
 * Sends one request (tools/call, prompts/get or resources/read) and prints what comes back.
 * Any questions the server asks on the way are answered inside the call, by the handlers
 * registered at connection (input-handlers.mjs); progress shows as a bar while it runs, and log
 * messages come as notifications (see connect.mjs).
 */
import { LOG_LEVEL_META_KEY } from "@modelcontextprotocol/client";
import { progressBar, renderPrompt, renderResource, renderToolResult } from "./render.mjs";

/**
 * @param {import("@modelcontextprotocol/client").Client} client
 * @param {import("./catalog.mjs").EntryRequest} request
 * @param {{ output: import("./output.mjs").Output, logLevel: import("@modelcontextprotocol/client").LoggingLevel, signal?: AbortSignal }} options
 * @returns {Promise<boolean>} false when the tool result has isError
 */
export async function invoke(client, request, { output, logLevel, signal }) {
  // 2026-07-28 has no logging/setLevel: the level travels with each request.
  const _meta = { [LOG_LEVEL_META_KEY]: logLevel };
  const options = {
    onprogress: (/** @type {import("@modelcontextprotocol/client").Progress} */ progress) =>
      output.progress(progressBar(progress)),
    // A long tool that keeps reporting progress is not timed out.
    resetTimeoutOnProgress: true,
    // Aborting cancels the request: on 2026-07-28 the client closes its response stream, and the server stops.
    signal,
  };
  /**
   * The response, once the progress bar (if any) is left behind.
   * @template T
   * @param {Promise<T>} pending
   */
  const settled = async (pending) => {
    try {
      return await pending;
    } finally {
      output.endProgress();
    }
  };
  switch (request.method) {
    case "tools/call": {
      const result = await settled(
        client.callTool({ name: request.name, arguments: request.arguments, _meta }, options),
      );
      renderToolResult(result, output);
      return !result.isError;
    }
    case "prompts/get": {
      const args = /** @type {Record<string, string>} */ (request.arguments);
      renderPrompt(await settled(client.getPrompt({ name: request.name, arguments: args, _meta }, options)), output);
      return true;
    }
    case "resources/read":
      // A development client shows what the server says now, never a cached copy.
      renderResource(
        await settled(client.readResource({ uri: request.uri, _meta }, { ...options, cacheMode: "bypass" })),
        output,
      );
      return true;
  }
}
