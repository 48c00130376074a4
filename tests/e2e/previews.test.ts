/**
 * The local previews (`PREVIEWS`: `npm run preview:vercel` and the like), each run as its script runs it (package.json's command, given the
 * fixture build's output folder): the preview makes a state secret of its own for the run, so a tool that asks asks (not -32603),
 * says so in one line and never prints the secret; it uses the caller's NITRO_MCP_STATE_SECRET when one is set; and a port
 * already taken ends it with one line and exit code 1, no stack trace.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ELICITATION, uniqueKey } from "../helpers/flows";
import { post } from "../helpers/rpc";
import { freePort, OUTPUT, type RunningServer, startProcess } from "../helpers/server.mjs";
import { WORKER_OUTPUT, isolatedWorkerFlags } from "../helpers/worker.mjs";

const SCRIPTS: Record<string, string> = JSON.parse(readFileSync("package.json", "utf8")).scripts;
const MADE_SECRET = /previewing with a secret made for this run/;
/** A secret made by a preview, were it printed: 32 random bytes in base64url. */
const PRINTED_SECRET = /[A-Za-z0-9_-]{43}/;

const PREVIEWS = [
  {
    script: "preview:vercel",
    output: OUTPUT.vercel,
    ready: /Listening on (http:\/\/\S+)/,
    options: (): string[] => [],
  },
];
// with:cloudflare
PREVIEWS.push({
  script: "preview:cloudflare",
  output: WORKER_OUTPUT,
  ready: /Ready on (http:\/\/\S+)/,
  options: isolatedWorkerFlags,
});
// end with:cloudflare

/** The script's command (`node <program>`), given the fixture build's folder and `options`. */
function command(script: string, output: string, options: string[]): { command: string; args: string[] } {
  const [program, ...args] = SCRIPTS[script]!.split(" ");
  expect(program).toBe("node");
  return { command: process.execPath, args: [...args, output, ...options] };
}

/** The environment of a shell with nothing set for the server: no NITRO_* variable, no storage. */
const shellEnv = (env: Record<string, string>) => ({ PATH: process.env.PATH, HOME: process.env.HOME, ...env });

/** Runs a preview that is expected to stop by itself: its exit code and everything it printed. */
function runToExit(
  script: string,
  output: string,
  options: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; printed: string }> {
  const { command: program, args } = command(script, output, options);
  const child = spawn(program, args, { env: shellEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let printed = "";
  child.stdout.on("data", (chunk) => (printed += chunk));
  child.stderr.on("data", (chunk) => (printed += chunk));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, printed })));
}

async function startPreview(preview: (typeof PREVIEWS)[number], env: Record<string, string> = {}) {
  const port = await freePort();
  return startProcess({
    ...command(preview.script, preview.output, preview.options()),
    env: shellEnv({ PORT: String(port), ...env }),
    ready: preview.ready,
    timeoutMs: 60_000,
  });
}

/** Round one of the fixture confirm_increment: the result, or the error a preview without a secret answers. */
async function askToIncrement(server: RunningServer) {
  const reply = await post(
    server.url,
    "tools/call",
    { name: "confirm_increment", arguments: { key: uniqueKey() } },
    { capabilities: ELICITATION },
  );
  return reply.body;
}

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe.each(PREVIEWS)("npm run $script", (preview) => {
  it("makes a secret for the run: a tool that asks asks, and the secret is never printed", async () => {
    running = await startPreview(preview);
    const body = await askToIncrement(running);
    expect(body.error).toBeUndefined();
    expect(body.result).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
    const printed = running.rawLogs();
    expect(printed).toMatch(MADE_SECRET);
    expect(printed.match(PRINTED_SECRET)).toBeNull();
  });

  it("uses the caller's NITRO_MCP_STATE_SECRET, and never prints it", async () => {
    const own = `own-preview-secret-${randomBytes(16).toString("hex")}`;
    running = await startPreview(preview, { NITRO_MCP_STATE_SECRET: own });
    expect((await askToIncrement(running)).result).toMatchObject({ resultType: "input_required" });
    const printed = running.rawLogs();
    expect(printed).not.toMatch(MADE_SECRET);
    expect(printed).not.toContain(own);
  });

  it("stops with one line and exit code 1 when its port is taken", async () => {
    const port = await freePort();
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(port, "127.0.0.1", resolve));
    try {
      const { code, printed } = await runToExit(preview.script, preview.output, preview.options(), {
        PORT: String(port),
      });
      expect(code).toBe(1);
      expect(printed.trim().split("\n")).toEqual([expect.stringContaining(`127.0.0.1:${port} is already in use`)]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
