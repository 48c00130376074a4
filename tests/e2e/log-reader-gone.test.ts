/**
 * A log reader that goes away (a process manager, `| tee`, a log shipper restarting) must not take
 * the server down: the built server is started by a parent holding its stdout and stderr, the
 * parent exits, and the server, whose next writes to both fail with EPIPE, still answers every
 * request and still ends on SIGTERM.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { post } from "../helpers/rpc";
import { OUTPUT, TEST_SECRET } from "../helpers/server.mjs";

/** Starts the server with its output piped to itself, prints the server's pid and address, and exits. */
const PARENT = `
import { spawn } from "node:child_process";
const server = spawn(process.execPath, [process.argv[1]], { stdio: ["ignore", "pipe", "pipe"], detached: true });
let output = "";
server.stdout.on("data", (chunk) => {
  output += chunk;
  const listening = /Listening on (http:\\/\\/\\S+)/.exec(output);
  if (listening) {
    process.stdout.write(JSON.stringify({ pid: server.pid, url: listening[1] + "/mcp" }));
    process.exit(0);
  }
});
server.once("exit", (code) => process.exit(100 + (code ?? 0)));
`;

/** Runs the parent to its end; resolves with the orphaned server it started. */
function startOrphanedServer(format: string): Promise<{ pid: number; url: string }> {
  const parent = spawn(process.execPath, ["--input-type=module", "-e", PARENT, `${OUTPUT.fixtures}/server/index.mjs`], {
    env: {
      PATH: process.env.PATH,
      HOST: "127.0.0.1",
      PORT: "0",
      NITRO_MCP_STATE_SECRET: TEST_SECRET,
      NITRO_MCP_LOG_FORMAT: format,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let printed = "";
  parent.stdout.on("data", (chunk) => (printed += chunk));
  return new Promise((resolve, reject) =>
    parent.once("exit", (code) =>
      code === 0 ? resolve(JSON.parse(printed)) : reject(new Error(`the parent exited with ${code}`)),
    ),
  );
}

/** Whether the process has exited (a zombie waiting for whoever adopted it counts as exited). */
function exited(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z") ?? false;
  } catch {
    return false;
  }
}

describe.each(["json", "pretty"])("with NITRO_MCP_LOG_FORMAT=%s, after the log reader has gone", (format) => {
  it("answers every request, writing to stdout and stderr, and ends on SIGTERM", { timeout: 60_000 }, async () => {
    const { pid, url } = await startOrphanedServer(format);
    try {
      const signal = () => AbortSignal.timeout(10_000);
      const sum = async (a: number) => {
        const { body } = await post(
          url,
          "tools/call",
          { name: "structured_sum", arguments: { a, b: 1 } },
          { signal: signal() },
        );
        expect(body.result.structuredContent).toEqual({ sum: a + 1 });
      };
      // Request lines go to stdout; a failing tool's stack and a refused origin's reason to stderr.
      for (let i = 0; i < 3; i++) await sum(i);
      const failing = await post(
        url,
        "tools/call",
        { name: "fails_unexpectedly", arguments: {} },
        { signal: signal() },
      );
      expect(failing.body.result).toMatchObject({
        isError: true,
        content: [{ text: expect.stringMatching(/\(reference [0-9a-f-]{36}\)/) }],
      });
      const refused = await post(
        url,
        "tools/list",
        {},
        { headers: { origin: "https://elsewhere.example" }, signal: signal() },
      );
      expect(refused.status).toBe(403);
      for (let i = 0; i < 10; i++) await sum(i);

      process.kill(pid, "SIGTERM");
      await expect.poll(() => exited(pid), { timeout: 10_000, interval: 100 }).toBe(true);
    } finally {
      if (!exited(pid)) process.kill(pid, "SIGKILL");
    }
  });
});
