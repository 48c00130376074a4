/**
 * `npm run dev` prints why the server did not start. Nitro's dev server loads the server in a worker and, when loading fails
 * (a definition whose file throws as it loads, such as a `defineForm` with a nested object; a check at start-up that
 * throws), answers every request with that error but prints nothing. A Node monitor, registered before any of the server's
 * own code runs, prints it in the terminal and leaves the failure to Nitro as before; once the entry has loaded it is
 * removed, so later errors are reported as Nitro reports them.
 */
import type { Nitro } from "nitropack";
import type { AddonFunction, RenderedChunk } from "rollup";

const MONITOR = "globalThis.__mcpStartUpMonitor";
const REGISTER = `${MONITOR} = (error) => console.error("[mcp] the server did not start:", error);
process.on("uncaughtExceptionMonitor", ${MONITOR});`;
const REMOVE = `process.off("uncaughtExceptionMonitor", ${MONITOR});`;

/** Rollup's `intro` or `outro` as it was (a string or a function of the chunk), with `code` added on the entry chunk only. */
function onEntry(existing: string | AddonFunction | undefined, code: string, before: boolean): AddonFunction {
  return async (chunk: RenderedChunk) => {
    const own = typeof existing === "function" ? await existing(chunk) : (existing ?? "");
    if (!chunk.isEntry) return own;
    return before ? `${code}\n${own}` : `${own}\n${code}`;
  };
}

export default function startUpErrors(nitro: Nitro): void {
  if (!nitro.options.dev) return;
  nitro.hooks.hook("rollup:before", (_nitro, config) => {
    const output = config.output as { intro?: string | AddonFunction; outro?: string | AddonFunction };
    output.intro = onEntry(output.intro, REGISTER, true);
    output.outro = onEntry(output.outro, REMOVE, false);
  });
}
