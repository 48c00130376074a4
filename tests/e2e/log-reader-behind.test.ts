/**
 * A log reader that falls behind (a paused pipe, a stalled log shipper) must cost the server neither its answers nor its
 * memory: the built server is started with its stdout a pipe nobody reads. It answers every request; what it holds unwritten
 * stays bounded, the lines past the bound dropped; once the reader catches up, it reads how many were dropped, and every
 * request is either a line it read or one of those counted.
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { afterEach, expect, it } from "vitest";
import { post } from "../helpers/rpc";
import { OUTPUT, TEST_SECRET } from "../helpers/server.mjs";

const KIB = 1024;

/** What the kernel buffers on a socket by default (Linux says; elsewhere a generous guess). */
function kernelSocketBuffer(): number {
  try {
    return Number(readFileSync("/proc/sys/net/core/wmem_default", "utf8"));
  } catch {
    return 4 * 1024 * KIB;
  }
}

/**
 * What can be written before the count, at most: what the server holds unwritten (1 MiB and a batch of 16 KiB:
 * server/mcp/platform/node.ts), what the kernel holds (Node's stdio pipes are socket pairs), and this reader's buffers.
 */
const HELD_AT_MOST = 1040 * KIB + kernelSocketBuffer() + 256 * KIB;
/** Request lines for half a MiB more than that: each line carries its 200-character id, over 400 bytes in all. */
const REQUESTS = Math.ceil((HELD_AT_MOST + 512 * KIB) / 400);
const IN_FLIGHT = 32;

let server: ChildProcessByStdio<null, Readable, Readable> | undefined;
afterEach(() => {
  server?.kill("SIGKILL");
});

/** The fixtures build, its stdout read until it listens, then no more until `resume`. */
async function startWithPausedReader() {
  server = spawn(process.execPath, [`${OUTPUT.fixtures}/server/index.mjs`], {
    env: { PATH: process.env.PATH, HOST: "127.0.0.1", PORT: "0", NITRO_MCP_STATE_SECRET: TEST_SECRET },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stdout = server.stdout;
  server.stderr.resume();
  let output = "";
  stdout.on("data", (chunk) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    server!.once("exit", (code) => reject(new Error(`the server exited with ${code}`)));
    const listening = () => {
      const address = /Listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (!address) return;
      stdout.pause().off("data", listening);
      resolve(`${address}/mcp`);
    };
    stdout.on("data", listening);
  });
  return { url, output: () => output, resume: () => stdout.resume() };
}

const requestLines = (output: string) => output.split("\n").filter((line) => line.includes('"msg":"request"')).length;
const DROPPED = /"msg":"stdout fell behind: (\d+) log lines were dropped"/;

it("answers every request while nobody reads its stdout, holds at most about 1 MiB of lines, and reports what it dropped once read again", async () => {
  const { url, output, resume } = await startWithPausedReader();
  let sent = 0;
  const call = async () => {
    const { status, body } = await post(
      url,
      "tools/call",
      { name: "structured_sum", arguments: { a: 1, b: 2 } },
      { id: `${sent++}`.padEnd(200, "-") },
    );
    expect(status).toBe(200);
    expect(body.result.structuredContent).toEqual({ sum: 3 });
  };
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (sent < REQUESTS) await call();
    }),
  );

  // No request comes after: the count is written once the backlog has drained, not with a next line.
  resume();
  await expect.poll(() => DROPPED.test(output()), { timeout: 30_000 }).toBe(true);
  const notice = output().indexOf('"msg":"stdout fell behind');
  expect(notice).toBeLessThan(HELD_AT_MOST);
  const dropped = Number(DROPPED.exec(output())![1]);
  expect(dropped).toBeGreaterThan(0);
  await expect.poll(() => requestLines(output()) + dropped, { timeout: 10_000 }).toBe(sent);
}, 120_000);
