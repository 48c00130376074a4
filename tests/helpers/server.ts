/**
 * Starts a real server build as a child process on 127.0.0.1 and a free port.
 * `output` picks the build (`.output` for the template, `.output-conformance` for the fixtures).
 */
import { spawn, type ChildProcess } from "node:child_process";

export const TEST_SECRET = "test-secret-0123456789abcdef0123456789";

export interface RunningServer {
  url: string;
  /** Everything the server printed, for assertions on its log. */
  logs(): string;
  stop(): Promise<void>;
}

export async function startServer(options: { env?: Record<string, string>; output?: string } = {}): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, [`${options.output ?? ".output"}/server/index.mjs`], {
    env: { PATH: process.env.PATH, HOST: "127.0.0.1", PORT: "0", NITRO_MCP_STATE_SECRET: TEST_SECRET, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 15_000);
    const check = () => {
      const match = /Listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on("data", check);
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

/** Runs a build expecting it to fail at start-up; resolves with its exit code and output. */
export function startServerExpectingFailure(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
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
