/** The log's escaping: what a client sent never becomes a line of its own, a terminal escape or reordered text, in either format. */
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorFields, escapeControlCharacters, formatLine, logValue, setLogFormat } from "../../server/mcp/log";

const FORGED = "x\r\n[mcp] forged\u001b[31m\u007f\u009b2J\u2028\u2029end";
/** Any control character or line break but the newline that ends a line. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

describe("escapeControlCharacters", () => {
  it("writes every control character, line break and bidi control as its JSON escape", () => {
    expect(escapeControlCharacters(FORGED)).toBe("x\\r\\n[mcp] forged\\u001b[31m\\u007f\\u009b2J\\u2028\\u2029end");
    expect(escapeControlCharacters("\u0000\t\u001f\u0080\u009f")).toBe("\\u0000\\t\\u001f\\u0080\\u009f");
    expect(escapeControlCharacters("admin\u202e\u2066txt.exe\u2069\u200f")).toBe(
      "admin\\u202e\\u2066txt.exe\\u2069\\u200f",
    );
  });

  it("returns text with nothing to escape as it is, other Unicode included", () => {
    const text = "tools/call café 世界 🙂 \u00a0\u00ff";
    expect(escapeControlCharacters(text)).toBe(text);
  });
});

describe("logValue", () => {
  it("gives exactly the escaped JSON of any value, its shortcut for plain strings included", () => {
    // The reference is what logValue wrote before its shortcut: JSON.stringify, then every control character escaped.
    const reference = (value: unknown) => escapeControlCharacters(JSON.stringify(value) ?? "null");
    // Every ASCII character, controls and the edges of the shortcut's range (0x1f, 0x20, 0x7e, 0x7f) among them; then the rest.
    const ascii = fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)) });
    const strings = fc.oneof(
      ascii,
      fc.string(),
      fc.string({ unit: "binary" }),
      fc.string({ unit: fc.constantFrom("a", '"', "\\", "\u001f", "\u007f", "\u2028", "\ud800", "~", " ") }),
    );
    fc.assert(
      fc.property(fc.oneof(strings, fc.jsonValue()), (value) => {
        expect(logValue(value)).toBe(reference(value));
      }),
      { numRuns: 2000 },
    );
    expect(logValue("tools/call")).toBe('"tools/call"');
    // The shortcut is taken: a plain string costs no JSON.stringify (the point of it: the request log writes several a line).
    const stringify = vi.spyOn(JSON, "stringify");
    logValue("bench_greet");
    const calls = stringify.mock.calls.length;
    stringify.mockRestore(); // before the assertion: a failure must not leave JSON.stringify spied on for the tests after it
    expect(calls).toBe(0);
    expect(logValue('say "hi"\\')).toBe('"say \\"hi\\"\\\\"');
  });
});

describe("formatLine", () => {
  afterEach(() => setLogFormat("json"));

  it("json: one valid JSON line, every value intact, nothing raw that JSON.stringify leaves (C1, DEL, U+2028)", () => {
    setLogFormat("json");
    const line = formatLine("info", FORGED, { requestId: FORGED, nested: { uri: FORGED } });
    expect(line).not.toMatch(/[\n\r]/);
    expect(line).not.toMatch(CONTROL);
    expect(JSON.parse(line)).toMatchObject({ level: "info", msg: FORGED, requestId: FORGED, nested: { uri: FORGED } });
  });

  it("json: time, level and msg first, then the fields, those left undefined out", () => {
    setLogFormat("json");
    const line = formatLine("warn", "refused", { status: 403, target: undefined, method: "tools/call" });
    expect(Object.keys(JSON.parse(line))).toEqual(["time", "level", "msg", "status", "method"]);
    expect(JSON.parse(line).time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Object.keys(JSON.parse(formatLine("info", "started")))).toEqual(["time", "level", "msg"]);
  });

  it("pretty: the message and every value escaped on one line", () => {
    setLogFormat("pretty");
    const line = formatLine("warn", `rejected ${FORGED}`, { method: FORGED, id: 7, meta: { name: FORGED } });
    expect(line).toBe(
      "[mcp] warn: rejected x\\r\\n[mcp] forged\\u001b[31m\\u007f\\u009b2J\\u2028\\u2029end  " +
        "method=x\\r\\n[mcp] forged\\u001b[31m\\u007f\\u009b2J\\u2028\\u2029end id=7 " +
        'meta={"name":"x\\r\\n[mcp] forged\\u001b[31m\\u007f\\u009b2J\\u2028\\u2029end"}',
    );
  });

  it("pretty: an error's stack keeps its frames on lines of their own, its message (which may quote a client) on the first", () => {
    setLogFormat("pretty");
    const error = new Error(`no such note ${FORGED}\n    at forged (frame)`);
    const [head, first, ...rest] = formatLine("error", "tool threw", { error: errorFields(error) }).split("\n");
    expect(head).toBe("[mcp] error: tool threw");
    expect(first).toBe(`Error: no such note ${escapeControlCharacters(`${FORGED}\n    at forged (frame)`)}`);
    expect(rest.length).toBeGreaterThan(0);
    for (const frame of rest) expect(frame).toMatch(/^ {4}at (?!forged)/);
  });

  it("pretty: a thrown value that is not an Error, or an error without a stack, stays on one line", () => {
    setLogFormat("pretty");
    expect(formatLine("error", "failed", { error: errorFields(FORGED) })).toBe(
      `[mcp] error: failed\n${escapeControlCharacters(FORGED)}`,
    );
    const stackless = Object.assign(new Error(FORGED), { stack: undefined });
    expect(formatLine("error", "failed", { error: errorFields(stackless) }).split("\n")).toHaveLength(2);
  });
});

describe("writing lines", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  type Log = typeof import("../../server/mcp/log");

  /**
   * What reaches stdout, write by write, while `act` runs with fake timers, and until what it left pending is written.
   * The log module is loaded afresh: the one imported above may be another file's copy (this worker shares its module
   * cache), its writers already open and lines waiting in its batch, on a real timer.
   */
  async function writesDuring(act: (log: Log, writes: string[]) => void): Promise<string[]> {
    const writes: string[] = [];
    vi.resetModules();
    const fresh: Log = await import("../../server/mcp/log");
    // Fake only from here to the end, where nothing waits: another file's server still at work never sees fake time.
    vi.useFakeTimers();
    fresh.setLogFormat("json");
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      writes.push(String(chunk));
      return true;
    });
    act(fresh, writes);
    vi.advanceTimersByTime(50);
    vi.useRealTimers();
    return writes;
  }

  it("batches the lines of a moment into one write, at most 50 ms after the first", async () => {
    const writes = await writesDuring((log, written) => {
      log.logInfo("one");
      log.logInfo("two");
      vi.advanceTimersByTime(49);
      expect(written).toEqual([]);
      log.logInfoMembers("three", `"status":200`);
      vi.advanceTimersByTime(1);
      expect(written).toHaveLength(1);
    });
    expect(
      writes[0]!
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line).msg),
    ).toEqual(["one", "two", "three"]);
  });

  it("writes a batch at once when it reaches 16 KB", async () => {
    const writes = await writesDuring((log, written) => {
      for (let i = 0; i < 100; i++) log.logInfo("filler", { text: "x".repeat(200) });
      expect(written).toHaveLength(1);
      expect(written[0]!.length).toBeGreaterThanOrEqual(16 * 1024);
    });
    expect(writes.join("").split("\n").filter(Boolean)).toHaveLength(100);
  });

  it("a line of JSON members, its values from logValue, is one valid JSON line, escaped like any other", async () => {
    const writes = await writesDuring((log) =>
      log.logInfoMembers(`request ${FORGED}`, `"status":200,"method":${log.logValue(FORGED)}`),
    );
    const [line, end] = writes[0]!.split("\n");
    expect(end).toBe("");
    expect(line).not.toMatch(CONTROL);
    expect(JSON.parse(line!)).toMatchObject({ level: "info", msg: `request ${FORGED}`, status: 200, method: FORGED });
  });
});
