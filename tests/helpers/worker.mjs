/**
 * Starts the Cloudflare fixture build (builds.mjs) in real workerd through `wrangler dev`, as a child process on 127.0.0.1
 * and a free port, like the other builds (server.mjs). Plain JS with JSDoc types.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { baseEnv, freePort, startProcess } from "./server.mjs";

/** The output folder of the Cloudflare fixture build. */
export const WORKER_OUTPUT = ".output-fixtures-cloudflare";

/**
 * `wrangler dev` flags for a Worker of its own: fresh local storage, and no fight over the default inspector port with other
 * Workers running side by side.
 * @returns {string[]}
 */
export const isolatedWorkerFlags = () => [
  "--inspector-port",
  "0",
  "--persist-to",
  mkdtempSync(join(tmpdir(), "wrangler-")),
];

/**
 * The Cloudflare fixture build in real workerd through `wrangler dev` (as `npm run preview:cloudflare`
 * runs `npm run build:cloudflare`'s), offline, with fresh local storage.
 * @param {{ env?: Record<string, string>, output?: string, config?: string, port?: number }} [options]
 */
export async function startWorker(options = {}) {
  const port = options.port ?? (await freePort());
  const vars = Object.entries(baseEnv(options.env))
    .filter(([key]) => key.startsWith("NITRO_"))
    .flatMap(([key, value]) => ["--var", `${key}:${value}`]);
  return startProcess({
    command: process.execPath,
    args: [
      "node_modules/wrangler/bin/wrangler.js",
      "dev",
      "--config",
      options.config ?? `${options.output ?? WORKER_OUTPUT}/server/wrangler.json`,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--show-interactive-dev-session=false",
      ...isolatedWorkerFlags(),
      ...vars,
    ],
    env: {
      ...baseEnv(),
      WRANGLER_SEND_METRICS: "false",
      WRANGLER_SEND_ERROR_REPORTS: "false",
      WRANGLER_HIDE_BANNER: "true",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      CI: "true",
    },
    ready: /Ready on (http:\/\/\S+)/,
    timeoutMs: 60_000,
  });
}

/**
 * The Cloudflare fixture build with its `wrangler.json` as `change` leaves it (a binding taken out, say), started as
 * `startWorker` starts it.
 * @param {(config: Record<string, unknown>) => Record<string, unknown>} change
 */
export function startWorkerWith(change) {
  const config = JSON.parse(readFileSync(`${WORKER_OUTPUT}/server/wrangler.json`, "utf8"));
  const file = join(mkdtempSync(join(tmpdir(), "worker-config-")), "wrangler.json");
  const main = join(process.cwd(), WORKER_OUTPUT, "server/index.mjs");
  writeFileSync(file, JSON.stringify({ ...change(config), main, assets: undefined }));
  return startWorker({ config: file });
}
