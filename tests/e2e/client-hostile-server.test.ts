/**
 * `npm run client` (server/dev/client.mjs) against a deliberately malicious MCP server, started
 * here on node:http: every string it sends carries terminal control sequences (OSC 52 clipboard,
 * OSC 8 link, clear screen, window title, BEL, bare CR, C1 CSI, bidi override, line separator)
 * and shell syntax (quotes, `$(…)`, backticks, newlines). The raw bytes the client prints must
 * hold none of those control characters, and a `--curl` transcript, replayed by bash in an empty
 * folder where `curl` is a fake that writes down its arguments, must run curl and nothing else.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLIENT = "server/dev/client.mjs";

/** What a hostile server puts in every string: each piece would act on a terminal or a shell. */
const PAYLOAD = [
  "\x1b]52;c;cHduZWQ=\x07", // OSC 52: writes the clipboard
  "\x1b]8;;https://evil.test/\x1b\\click\x1b]8;;\x1b\\", // OSC 8: a hidden hyperlink
  "\x1b[2J", // clears the screen
  "\x1b]0;owned\x07", // sets the window title
  "\x07", // BEL
  "bare\rCR", // overwrites the line
  "\u009b31m", // C1 CSI
  "\u202eevil\u2066", // bidi override and isolate
  "\u2028\u007f",
  `'"`,
  "$(touch pwned)",
  "`: > pwned-backtick`",
  "\n$(: > pwned-newline)\n",
].join("");
const evil = (label: string) => `${label} ${PAYLOAD}`;

/** Any byte a server must not get onto the terminal: C0 but the newline, DEL, C1, separators, bidi controls. */
const UNPRINTABLE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** The payload as the client shows it, escaped: proof the string arrived and was printed. */
const SHOWN = "\\x1b]52;c;cHduZWQ=\\x07";

const TOOL = evil("tool");
const ASKS_MODEL = "asks_model";
const FAILS = "fails";
const FAILS_HTTP = "fails_http";
const STATE = evil("state"); // sent back by the client with its answers: the --curl script must carry it verbatim

const text = (value: string) => ({ type: "text", text: value });
const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: evil("server"), version: evil("1") } };
const complete = (result: object) => ({ ...result, resultType: "complete", _meta: SERVER_INFO });
/** A list or a resource, not to be cached (2026-07-28 says for how long and for whom it may be). */
const uncached = (result: object) => complete({ ...result, ttlMs: 0, cacheScope: "private" });

const TOOLS = [
  {
    name: TOOL,
    title: evil("title"),
    description: evil("description"),
    inputSchema: {
      type: "object",
      properties: {
        [evil("argument")]: {
          type: "string",
          description: evil("about"),
          enum: [evil("choice")],
          default: evil("choice"),
        },
      },
    },
  },
  { name: ASKS_MODEL, description: evil("sampling"), inputSchema: { type: "object", properties: {} } },
  { name: FAILS, description: evil("error"), inputSchema: { type: "object", properties: {} } },
  { name: FAILS_HTTP, description: evil("HTTP error"), inputSchema: { type: "object", properties: {} } },
  // The official client drops a tool with an invalid x-mcp-header, warning on the console with its name.
  {
    name: evil("dropped"),
    inputSchema: { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } },
  },
];

/** The questions of a tool's first round: a form, and a link that is no web link. */
const QUESTIONS = {
  form: {
    method: "elicitation/create",
    params: {
      mode: "form",
      message: evil("form"),
      requestedSchema: {
        type: "object",
        properties: { pick: { type: "string", description: evil("field"), enum: [evil("option")] } },
        required: ["pick"],
      },
    },
  },
  link: {
    method: "elicitation/create",
    params: { mode: "url", message: evil("link"), url: `javascript:alert(1)//${PAYLOAD}`, elicitationId: "e1" },
  },
};

const SAMPLING = {
  model: {
    method: "sampling/createMessage",
    params: { systemPrompt: evil("system"), messages: [{ role: "user", content: text(evil("sample")) }], maxTokens: 5 },
  },
  roots: { method: "roots/list" },
};

/** The final result of TOOL: every kind of content, with structured content and isError. */
const TOOL_RESULT = complete({
  content: [
    text(evil("result")),
    { type: "resource_link", name: evil("link name"), uri: evil("link://uri") },
    { type: "image", mimeType: evil("image/png"), data: "AAAA" },
    { type: "resource", resource: { uri: evil("embedded://uri"), text: evil("embedded") } },
  ],
  structuredContent: { [evil("key")]: evil("value") },
  isError: true,
});

type Rpc = {
  jsonrpc: string;
  id: string | number;
  method: string;
  params?: { requestState?: string; name?: string; _meta?: { progressToken?: string | number } };
};

/** The answer to one request: a result, or a stream of notifications before it; or an HTTP error with a text body. */
function answer(request: Rpc): { result?: object; error?: object; notifications?: object[]; httpError?: string } {
  switch (request.method) {
    case "server/discover":
      return {
        result: complete({
          supportedVersions: ["2026-07-28"],
          capabilities: { tools: {}, prompts: {}, resources: {}, logging: {} },
          instructions: evil("instructions"),
        }),
      };
    case "tools/list":
      return { result: uncached({ tools: TOOLS }) };
    case "prompts/list":
      return {
        result: uncached({
          prompts: [
            {
              name: evil("prompt"),
              title: evil("title"),
              description: evil("description"),
              arguments: [{ name: evil("argument"), description: evil("about") }],
            },
          ],
        }),
      };
    case "resources/list":
      return {
        result: uncached({
          resources: [
            {
              uri: "hostile://resource",
              name: evil("resource"),
              title: evil("title"),
              description: evil("description"),
            },
          ],
        }),
      };
    case "resources/templates/list":
      return {
        result: uncached({
          resourceTemplates: [
            { uriTemplate: "hostile://items/{id}", name: evil("template"), description: evil("description") },
          ],
        }),
      };
    case "prompts/get":
      return {
        result: complete({
          description: evil("description"),
          messages: [{ role: "user", content: text(evil("message")) }],
        }),
      };
    case "resources/read":
      return {
        result: uncached({
          contents: [{ uri: evil("contents://uri"), mimeType: evil("text/plain"), text: evil("contents") }],
        }),
      };
    case "tools/call":
      break;
    default:
      return { error: { code: -32601, message: evil("no such method") } };
  }
  const { name, requestState, _meta } = request.params ?? {};
  if (name === FAILS) return { error: { code: -32603, message: evil("error message") } };
  if (name === FAILS_HTTP) return { httpError: evil("HTTP body") };
  const notifications = [
    {
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "warning", logger: evil("logger"), data: evil("log") },
    },
    {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: _meta?.progressToken, progress: 1, total: 2, message: evil("progress") },
    },
  ];
  if (requestState !== undefined)
    return { notifications, result: name === ASKS_MODEL ? complete({ content: [text(evil("done"))] }) : TOOL_RESULT };
  const inputRequests = name === ASKS_MODEL ? SAMPLING : QUESTIONS;
  return {
    notifications,
    result: { resultType: "input_required", inputRequests, requestState: STATE, _meta: SERVER_INFO },
  };
}

/** Every request body the server received, as received. */
const received: string[] = [];
let server: Server;
let url: string;

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (request.method !== "POST") return void response.writeHead(405).end();
  const body = Buffer.concat(chunks).toString("utf8");
  received.push(body);
  const rpc = JSON.parse(body) as Rpc;
  if (rpc.id === undefined) return void response.writeHead(202).end();
  const { result, error, notifications, httpError } = answer(rpc);
  if (httpError) return void response.writeHead(500, { "content-type": "text/plain" }).end(httpError);
  const reply = JSON.stringify({ jsonrpc: "2.0", id: rpc.id, ...(error ? { error } : { result }) });
  if (!notifications) return void response.writeHead(200, { "content-type": "application/json" }).end(reply);
  response.writeHead(200, { "content-type": "text/event-stream" });
  for (const message of [...notifications.map((n) => JSON.stringify(n)), reply])
    response.write(`event: message\ndata: ${message}\n\n`);
  response.end();
}

beforeAll(async () => {
  server = createServer((request, response) => void handle(request, response).catch(() => response.destroy()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Run = { code: number | null; stdout: Buffer; stderr: Buffer; bodies: string[] };

/** Runs the client as a script does (pipes), `input` on its stdin; with the request bodies the server received meanwhile. */
function runClient(args: string[], input = ""): Promise<Run> {
  const before = received.length;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLIENT, "--url", url, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({ code, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), bodies: received.slice(before) }),
    );
    child.stdin.end(input);
  });
}

/** The raw bytes hold no control character but the newline: no ESC, BEL, CR, C1, separator or bidi control. */
function expectPrintable(bytes: Buffer, name: string): void {
  for (const byte of [0x1b, 0x07, 0x0d, 0x00])
    expect(bytes.includes(byte), `${name} has byte 0x${byte.toString(16)}`).toBe(false);
  const found = UNPRINTABLE.exec(bytes.toString("utf8"));
  expect(
    found &&
      `U+${found[0].codePointAt(0)?.toString(16)} at ${found.index}: ${JSON.stringify(bytes.toString("utf8").slice(found.index - 40, found.index + 10))}`,
    name,
  ).toBeNull();
}

/** The official client's warning on each tools/list, about the tool it drops (checked by the `list` test). */
const DROPPED_TOOL_WARNING = /^\[mcp-sdk\] excluding tool 'dropped [^\n]*\n/m;

/** stdout and stderr as text once their bytes are checked; stderr without the warning about the dropped tool. */
function expectSafe(run: Run): { stdout: string; stderr: string } {
  expectPrintable(run.stdout, "stdout");
  expectPrintable(run.stderr, "stderr");
  return { stdout: run.stdout.toString("utf8"), stderr: run.stderr.toString("utf8").replace(DROPPED_TOOL_WARNING, "") };
}

describe("every server string is printed escaped", () => {
  it("list: names, titles and descriptions; the official client's warning about a dropped tool", async () => {
    const run = await runClient(["list"]);
    const { stdout } = expectSafe(run);
    expect(run.code).toBe(0);
    expect(stdout).toContain(`tool ${SHOWN}`);
    expect(stdout).toContain(`description ${SHOWN}`);
    expect(stdout).toContain(`prompt ${SHOWN}`);
    expect(stdout).toContain(`hostile://resource`);
    expect(stdout).toContain(`title ${SHOWN}`);
    expect(stdout).toContain(`template ${SHOWN}`);
    // One line per entry: the server's newlines and CRs are shown, never obeyed.
    expect(stdout).toContain("\\u2028\\x7f'\"$(touch pwned)`: > pwned-backtick`\\n$(: > pwned-newline)\\n");
    expect(stdout).toContain("bare\\rCR\\x9b31m\\u202eevil\\u2066");
    expect(run.stderr.toString("utf8")).toMatch(/^\[mcp-sdk\] excluding tool 'dropped \\x1b\]52;c;[^\n]+\n$/);
  });

  it("call: log and progress notifications, a form, a non-web link, then every kind of content", async () => {
    const run = await runClient(["call", TOOL, "--decline"]);
    const { stdout, stderr } = expectSafe(run);
    expect(run.code).toBe(1); // isError
    expect(stderr).toBe("");
    expect(stdout).toContain(`[warning logger ${SHOWN}`);
    expect(stdout).toContain(`progress ${SHOWN}`);
    expect(stdout).toContain(`? form ${SHOWN}`);
    expect(stdout).toContain(`? link ${SHOWN}`);
    for (const shown of ["result", "link name", "link://uri", "image/png", "embedded"])
      expect(stdout).toContain(`${shown} ${SHOWN}`);
    // structuredContent as JSON: C0 in JSON's own escapes, the rest in the client's.
    expect(stdout).toContain('"key \\u001b]52;c;cHduZWQ=\\u0007');
    expect(stdout).toContain("bare\\rCR\\x9b31m\\u202eevil");
  });

  it("on stderr, one escaped message each: an unanswered question, a sampling request, a JSON-RPC error, an HTTP error, a wrong argument", async () => {
    const unanswered = expectSafe(await runClient(["call", TOOL]));
    expect(unanswered.stderr).toMatch(
      /^The server asks a question this command does not answer:\n\? form \\x1b\]52;c;[^\n]+\n {2}field "pick" \(one of 1\)\n/,
    );
    const sampling = expectSafe(await runClient(["call", ASKS_MODEL]));
    expect(sampling.stderr).toContain(`which a command cannot write:\n? sample ${SHOWN}`);
    const failure = await runClient(["call", FAILS]);
    expect(failure.code).toBe(1);
    expect(expectSafe(failure).stderr).toMatch(/^[^\n]*error message \\x1b\]52;c;[^\n]*\(JSON-RPC error -32603\)\n$/);
    // One line each: an HTTP error's body, an argument the tool does not take (its list names the server's arguments).
    expect(expectSafe(await runClient(["call", FAILS_HTTP])).stderr).toMatch(/^[^\n]*HTTP body \\x1b\]52;c;[^\n]*\n$/);
    expect(expectSafe(await runClient(["call", TOOL, "nope=1"])).stderr).toMatch(
      /^[^\n]*has no argument "nope" \(it takes: argument \\x1b\]52;c;[^\n]*\n$/,
    );
  }, 120_000); // five client processes, one after another, each a cold Node start

  it("a URL-mode link: its scheme called out, never offered to open", async () => {
    const { stderr } = expectSafe(await runClient(["call", TOOL, "--answer", `pick=${evil("option")}`]));
    expect(stderr).toContain(
      "a link to open: a javascript: link, not http or https, do not open it: javascript:alert(1)//",
    );
  });

  it("get and read: a prompt's messages, a resource's contents", async () => {
    const prompt = expectSafe(await runClient(["get", evil("prompt")]));
    expect(prompt.stdout).toContain(`user: message ${SHOWN}`);
    const resource = expectSafe(await runClient(["read", "hostile://resource"]));
    expect(resource.stdout).toContain(`contents://uri ${SHOWN}`);
    expect(resource.stdout).toContain(`contents ${SHOWN}`);
  });

  it("interactively: the server's name and instructions, argument and form questions, a non-web link, a sampling request", async () => {
    // 1: the tool (its argument takes the default, the form its one option, the link is declined), 2: the one asking for a model, then quit.
    const run = await runClient([], ["1", "", "", "1", "", "2", "a word", "", "q", ""].join("\n"));
    const { stdout, stderr } = expectSafe(run);
    expect({ code: run.code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toContain(`Connected to server ${SHOWN}`);
    expect(stdout).toContain(`instructions ${SHOWN}`);
    expect(stdout).toContain(`argument ${SHOWN}`);
    expect(stdout).toContain(`1) option ${SHOWN}`);
    expect(stdout).toContain("Not offered: a javascript: link, not http or https, do not open it");
    expect(stdout).toContain(`system: system ${SHOWN}`);
    expect(stdout).toContain(`user: sample ${SHOWN}`);
    expect(stdout).toContain(`done ${SHOWN}`);
  });
});

describe("--curl writes a script that only runs curl", () => {
  let folder: string;
  let bash: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "client-hostile-"));
    bash = spawnSync("bash", ["-c", "command -v bash"], { encoding: "utf8" }).stdout.trim();
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  /**
   * Replays `script` with bash in an empty folder, PATH holding only a fake curl that writes down
   * its arguments; returns each curl call's arguments, what bash printed and what is in the folder.
   */
  function replay(script: string, name: string) {
    const bin = join(folder, `${name}-bin`);
    const empty = join(folder, `${name}-cwd`);
    const log = join(folder, `${name}-curl.log`);
    const file = join(folder, `${name}.sh`);
    mkdirSync(bin);
    mkdirSync(empty);
    writeFileSync(join(bin, "curl"), `#!${bash}\nprintf '%s\\0' "$#" "$@" >> "$CURL_LOG"\n`);
    chmodSync(join(bin, "curl"), 0o755);
    writeFileSync(file, script);
    const result = spawnSync(bash, [file], { cwd: empty, env: { PATH: bin, CURL_LOG: log }, encoding: "utf8" });
    const fields = readFileSync(log, "utf8").split("\0").slice(0, -1);
    const calls: string[][] = [];
    for (let at = 0; at < fields.length; at += Number(fields[at]) + 1)
      calls.push(fields.slice(at + 1, at + 1 + Number(fields[at])));
    return { status: result.status, stderr: result.stderr, calls, files: readdirSync(empty) };
  }

  it.each([
    ["list", ["list"]],
    ["rounds", ["call", TOOL, "--decline"]],
    ["unanswered", ["call", TOOL]],
    ["error", ["call", FAILS]],
    ["HTTP error", ["call", FAILS_HTTP]],
  ])("%s: every request replayed byte for byte, nothing else run", async (name, args) => {
    const run = await runClient(["--curl", ...args]);
    const { stderr: script } = expectSafe(run);
    for (const line of script.split("\n").filter(Boolean)) expect(line).toMatch(/^(# |curl | {2}-H | {2}--data-raw )/);

    const { status, stderr, calls, files } = replay(script, name);
    expect({ status, stderr, files }).toEqual({ status: 0, stderr: "", files: [] });
    expect(calls.map((call) => call[call.indexOf("--data-raw") + 1])).toEqual(run.bodies);
    for (const call of calls) expect(call.slice(0, 4)).toEqual(["-sS", "-w", "\\n", url]);
    if (name === "rounds") expect(run.bodies.at(-1)).toContain(JSON.stringify(STATE).slice(1, -1));
  });
});
