/**
 * Starts real server builds (see builds.mjs) as child processes on 127.0.0.1 and free ports:
 * a Node build and the Vercel function output (served by server/build/dev/preview-vercel.mjs). The fixture builds are the default: the
 * protocol tests run against the test fixtures, never against the shipped examples.
 * Plain JS with JSDoc types, so both the vitest suites and the conformance runner use it.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { createServer } from "node:net";

export const TEST_SECRET = "test-secret-0123456789abcdef0123456789";

/** Output folders of the builds in builds.mjs. */
export const OUTPUT = {
  product: ".output",
  fixtures: ".output-fixtures",
  vercel: ".output-fixtures-vercel",
  conformance: ".output-conformance",
};

/**
 * The files under `dir`, a build's output, that sit in a node_modules folder: none when the build bundled its dependencies
 * (nitro.config.ts). Throws when `dir` holds no built entry, so that a missing build cannot pass for a bundled one.
 * @param {string} dir
 */
export function filesInNodeModules(dir) {
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" });
  if (!files.some((file) => file.endsWith("index.mjs"))) throw new Error(`${dir} holds no built entry`);
  return files.filter((file) => file.split("/").includes("node_modules"));
}

/**
 * @typedef {object} RunningServer
 * @property {string} url the MCP endpoint
 * @property {string} base what the `ready` pattern's group 1 matched (the base URL)
 * @property {() => string} logs everything the server printed, its JSON log lines rendered as text
 *   (`[mcp] level: message`, then an error's stack), for assertions on what it said
 * @property {() => string} rawLogs everything the server printed, as printed
 * @property {number} pid the server process (for its memory)
 * @property {() => Promise<void>} stop
 */

/**
 * Spawns a process that collects what it prints, calling `onOutput` after each chunk until it
 * returns true (so a busy server's log is not searched again and again). With `keep: false`, only
 * what it printed until then is kept: the benchmark's servers log every request.
 */
function spawnCollecting(command, args, env, { onOutput = () => true, keep = true } = {}) {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const collected = { child, output: "" };
  let watching = true;
  const onData = (chunk) => {
    if (!keep && !watching) return;
    collected.output += chunk;
    if (watching && onOutput(collected.output)) watching = false;
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  return collected;
}

/** The server's output with each JSON log line (server/mcp/log.ts) rendered as the text a person would read. */
function readableLog(output) {
  return output
    .split("\n")
    .map((line) => {
      if (!line.startsWith("{")) return line;
      try {
        const { level, msg, error } = JSON.parse(line);
        if (typeof msg !== "string") return line;
        const head = `[mcp] ${level === "info" ? "" : `${level}: `}${msg}`;
        return error ? `${head}\n${error.stack ?? error.message}` : head;
      } catch {
        return line;
      }
    })
    .join("\n");
}

/**
 * Spawns `command` and resolves once its output matches `ready` (whose group 1 is the base URL).
 * @param {{ command: string, args: string[], env: Record<string, string | undefined>, ready: RegExp, timeoutMs?: number, keepOutput?: boolean }} options
 * @returns {Promise<RunningServer>}
 */
export async function startProcess({ command, args, env, ready, timeoutMs = 15_000, keepOutput = true }) {
  let resolveBase;
  const collected = spawnCollecting(command, args, env, {
    keep: keepOutput,
    onOutput: (output) => {
      const match = ready.exec(output);
      if (match) resolveBase(match[1]);
      return Boolean(match);
    },
  });
  const { child } = collected;
  const base = await new Promise((resolve, reject) => {
    // A process that never got ready is stopped, its whole group (detached), rather than left running.
    const timer = setTimeout(() => {
      reject(new Error(`${command} did not start:\n${collected.output}`));
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }, timeoutMs);
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
    base,
    pid: child.pid,
    logs: () => readableLog(collected.output),
    rawLogs: () => collected.output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        process.kill(-child.pid, "SIGTERM"); // the whole group: a preview's runner starts the server as its child
      }),
  };
}

export const baseEnv = (env = {}) => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  NITRO_MCP_STATE_SECRET: TEST_SECRET,
  ...env,
});

/**
 * A Node build (the fixture build unless `output` says otherwise), or another Node entry.
 * `keepOutput: false` drops what it prints once it is listening (the benchmark's servers log every request).
 * @param {{ env?: Record<string, string>, output?: string, entry?: string, args?: string[], nodeArgs?: string[], keepOutput?: boolean }} [options]
 */
export function startServer(options = {}) {
  return startProcess({
    command: process.execPath,
    args: [
      ...(options.nodeArgs ?? []),
      options.entry ?? `${options.output ?? OUTPUT.fixtures}/server/index.mjs`,
      ...(options.args ?? []),
    ],
    env: { HOST: "127.0.0.1", PORT: "0", ...baseEnv(options.env) },
    ready: /Listening on (http:\/\/\S+)/,
    keepOutput: options.keepOutput,
  });
}

/** The Vercel function output of the fixture build, served the way `npm run preview:vercel` serves `npm run build:vercel`'s. */
export function startVercelOutput(options = {}) {
  return startServer({ ...options, entry: "server/build/dev/preview-vercel.mjs", args: [OUTPUT.vercel] });
}

/**
 * Where free ports are picked: below every system's ephemeral range (Linux from 32768, macOS and Windows from 49152), so the
 * kernel never hands one out by itself (to a listener on port 0, such as a runtime's own sockets, or to an outgoing connection)
 * between the moment it is found free and the moment a test's server binds it.
 */
const PORT_RANGE = { from: 20_000, to: 32_000 };

/** Whether a listener can take `port` on 127.0.0.1 right now. */
const canListen = (port) =>
  new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });

/** A TCP port free on 127.0.0.1 right now, that nothing but another explicit choice can take before the test binds it. */
export async function freePort() {
  for (;;) {
    const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from));
    if (await canListen(port)) return port;
  }
}

/**
 * Runs the fixture Node build expecting it to fail at start-up.
 * @param {Record<string, string>} env
 * @returns {Promise<{ code: number | null, output: string }>}
 */
export function startServerExpectingFailure(env) {
  const collected = spawnCollecting(process.execPath, [`${OUTPUT.fixtures}/server/index.mjs`], {
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
