import { z } from "zod";
import { logInfo } from "../mcp/kit";

/**
 * Progress and cancellation: with `_meta.progressToken` the response becomes an SSE
 * stream of `notifications/progress`; closing it cancels the call (`mcp.signal`).
 */
export default defineTool({
  name: "countdown",
  title: "Count down",
  description: "Counts down from `from` to zero, one step every `delay_ms`, reporting progress.",
  input: {
    from: z.int().min(1).max(100).default(3).describe("Where to start"),
    // At most 100 s in all: well inside the deadline the server's streams end by (NITRO_MCP_STREAM_SECONDS).
    delay_ms: z.int().min(0).max(1_000).default(200).describe("Pause between steps"),
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run({ from, delay_ms }, mcp) {
    for (let step = 0; step < from; step++) {
      sendProgress(mcp, step, from, `${from - step}…`);
      await sleep(delay_ms, mcp.signal);
      if (mcp.signal.aborted) {
        // The operator's log (one JSON line in production), not console.*: a plain line would break log pipelines that read JSON.
        logInfo(`countdown cancelled by the client after ${step + 1} of ${from} steps`);
        return "Cancelled.";
      }
    }
    sendProgress(mcp, from, from, "Lift-off");
    return "Lift-off!";
  },
});
