#!/usr/bin/env node
/**
 * `npm run preview:cloudflare`: runs a Cloudflare build (`.output-cloudflare` from `npm run build:cloudflare`, or the
 * folder given as the first argument) in real workerd through `wrangler dev`, offline, with a local KV and Durable Object.
 * HOST/PORT as for `npm start` (default port 8787); the other arguments go to wrangler (`--var NAME:value`…).
 *
 * The state secret (NITRO_MCP_STATE_SECRET, or one made for the run: preview.mjs) reaches the Worker as a `--var`, which
 * wrangler lists as "(hidden)": it is never printed, and never written to a file.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { checkAddress, previewAddress, previewSecret } from "./preview.mjs";

const args = process.argv.slice(2);
const output = args[0] && !args[0].startsWith("-") ? args.shift() : ".output-cloudflare";
const address = previewAddress(8787);
// workerd itself would end with a native stack trace on a taken port.
await checkAddress("preview:cloudflare", address);
const secret = previewSecret();

const wrangler = createRequire(import.meta.url).resolve("wrangler/bin/wrangler.js");
const child = spawn(
  process.execPath,
  [
    wrangler,
    "dev",
    "--config",
    join(output, "server/wrangler.json"),
    "--ip",
    address.host,
    "--port",
    String(address.port),
    "--show-interactive-dev-session=false",
    "--var",
    `NITRO_MCP_STATE_SECRET:${secret}`,
    ...args,
  ],
  {
    stdio: "inherit",
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      WRANGLER_HIDE_BANNER: "true",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
    },
  },
);
// Wrangler stops workerd on these: wait for it, rather than leave it running.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
