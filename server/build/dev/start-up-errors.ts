/**
 * `npm run dev` prints why the server did not start. Nitro's dev server loads the server in a worker and, when loading fails
 * (a definition whose file throws as it loads, such as a `defineForm` with a nested object; a start-up check), answers every
 * request with that error but prints nothing. A Node monitor, registered before any of the server's own code runs, prints
 * it in the terminal and leaves the failure to Nitro as before; once the whole bundle has loaded it is removed, so later
 * errors are reported as Nitro reports them.
 */
import type { Nitro } from "nitropack";

const MONITOR = "globalThis.__mcpStartUpMonitor";

export default function startUpErrors(nitro: Nitro): void {
  if (!nitro.options.dev) return;
  nitro.hooks.hook("rollup:before", (_nitro, config) => {
    const output = config.output as { intro?: string; outro?: string };
    output.intro = `${MONITOR} = (error) => console.error("[mcp] the server did not start:", error);
process.on("uncaughtExceptionMonitor", ${MONITOR});\n${output.intro ?? ""}`;
    output.outro = `${output.outro ?? ""}\nprocess.off("uncaughtExceptionMonitor", ${MONITOR});`;
  });
}
