/**
 * Starts real server builds as child processes on 127.0.0.1 and free ports:
 * the Node build (`.output`, or `.output-conformance` for the fixtures), the Cloudflare
 * build inside workerd (`wrangler dev`), and the Vercel function output (served by
 * tests/targets/serve-vercel.mjs). Plain JS with JSDoc types, so both the vitest suites
 * and the conformance runner use it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const TEST_SECRET = "test-secret-0123456789abcdef0123456789";

/**
 * @typedef {object} RunningServer
 * @property {string} url the MCP endpoint
 * @property {() => string} logs everything the server printed, for assertions on its log
 * @property {() => Promise<void>} stop
 */

/**
 * Spawns `command` and resolves once its output matches `ready` (whose group 1 is the base URL).
 * @param {{ command: string, args: string[], env: Record<string, string | undefined>, ready: RegExp, timeoutMs?: number }} options
 * @returns {Promise<RunningServer>}
 */
/** Spawns a process that collects everything it prints, calling `onOutput` after each chunk. */
function spawnCollecting(command, args, env, onOutput = () => {}) {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const collected = { child, output: "" };
  const onData = (chunk) => {
    collected.output += chunk;
    onOutput(collected.output);
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  return collected;
}

async function startProcess({ command, args, env, ready, timeoutMs = 15_000 }) {
  let resolveBase;
  const collected = spawnCollecting(command, args, env, (output) => {
    const match = ready.exec(output);
    if (match) resolveBase(match[1]);
  });
  const { child } = collected;
  const base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not start:\n${collected.output}`)), timeoutMs);
    resolveBase = (value) => {
      clearTimeout(timer);
      resolve(value);
    };
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}:\n${collected.output}`));
    });
  });
  return {
    url: `${base}/mcp`,
    logs: () => collected.output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        process.kill(-child.pid, "SIGTERM"); // the whole group: wrangler runs workerd as a child
      }),
  };
}

const baseEnv = (env = {}) => ({ PATH: process.env.PATH, HOME: process.env.HOME, NITRO_MCP_STATE_SECRET: TEST_SECRET, ...env });

/**
 * The Node build (or another Node entry, such as the Vercel output server).
 * @param {{ env?: Record<string, string>, output?: string, entry?: string }} [options]
 */
export function startServer(options = {}) {
  return startProcess({
    command: process.execPath,
    args: [options.entry ?? `${options.output ?? ".output"}/server/index.mjs`],
    env: { HOST: "127.0.0.1", PORT: "0", ...baseEnv(options.env) },
    ready: /Listening on (http:\/\/\S+)/,
  });
}

/** The Vercel function output (`npm run build:vercel`), served the way `npm run preview:vercel` does. */
export function startVercelOutput(options = {}) {
  return startServer({ ...options, entry: "tests/targets/serve-vercel.mjs" });
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The Cloudflare build (`npm run build:cloudflare`) in real workerd through `wrangler dev`,
 * offline, with a fresh local KV store.
 * @param {{ env?: Record<string, string> }} [options]
 */
export async function startWorker(options = {}) {
  const port = await freePort();
  const vars = Object.entries(baseEnv(options.env))
    .filter(([key]) => key.startsWith("NITRO_"))
    .flatMap(([key, value]) => ["--var", `${key}:${value}`]);
  return startProcess({
    command: process.execPath,
    args: [
      "node_modules/wrangler/bin/wrangler.js",
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--show-interactive-dev-session=false",
      "--persist-to",
      mkdtempSync(join(tmpdir(), "wrangler-")),
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
 * Runs the Node build expecting it to fail at start-up.
 * @param {Record<string, string>} env
 * @returns {Promise<{ code: number | null, output: string }>}
 */
export function startServerExpectingFailure(env) {
  const collected = spawnCollecting(process.execPath, [".output/server/index.mjs"], {
    PATH: process.env.PATH,
    HOST: "127.0.0.1",
    PORT: "0",
    ...env,
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => collected.child.kill("SIGKILL"), 10_000);
    collected.child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output: collected.output });
    });
  });
}
