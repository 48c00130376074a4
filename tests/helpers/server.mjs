/**
 * Starts a real server build as a child process on 127.0.0.1 and a free port.
 * `output` picks the build (`.output` for the template, `.output-conformance` for the fixtures).
 * Plain JS (with JSDoc types) so that both the vitest suites and the conformance runner use it.
 */
import { spawn } from "node:child_process";

export const TEST_SECRET = "test-secret-0123456789abcdef0123456789";

/**
 * @typedef {object} RunningServer
 * @property {string} url the MCP endpoint
 * @property {() => string} logs everything the server printed, for assertions on its log
 * @property {() => Promise<void>} stop
 */

/**
 * @param {{ env?: Record<string, string>, output?: string }} [options]
 * @returns {Promise<RunningServer>}
 */
export async function startServer(options = {}) {
  const child = spawn(process.execPath, [`${options.output ?? ".output"}/server/index.mjs`], {
    env: { PATH: process.env.PATH, HOST: "127.0.0.1", PORT: "0", NITRO_MCP_STATE_SECRET: TEST_SECRET, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 15_000);
    child.stdout.on("data", () => {
      const match = /Listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `${base}/mcp`,
    logs: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/**
 * Runs a build expecting it to fail at start-up.
 * @param {Record<string, string>} env
 * @returns {Promise<{ code: number | null, output: string }>}
 */
export function startServerExpectingFailure(env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [".output/server/index.mjs"], {
      env: { PATH: process.env.PATH, HOST: "127.0.0.1", PORT: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
