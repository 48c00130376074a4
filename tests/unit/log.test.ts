/** The log's escaping: what a client sent never becomes a line of its own, a terminal escape or reordered text, in either format. */
import { afterEach, describe, expect, it } from "vitest";
import { errorFields, escapeControlCharacters, formatLine, setLogFormat } from "../../server/mcp/log";

const FORGED = "x\r\n[mcp] forged\u001b[31m\u007f\u009b2J\u2028\u2029end";
/** Any control character or line break but the newline that ends a line. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

describe("escapeControlCharacters", () => {
  it("writes every control character, line break and bidi control as its JSON escape", () => {
    expect(escapeControlCharacters(FORGED)).toBe("x\\r\\n[mcp] forged\\u001b[31m\\u007f\\u009b2J\\u2028\\u2029end");
    expect(escapeControlCharacters("\u0000\t\u001f\u0080\u009f")).toBe("\\u0000\\t\\u001f\\u0080\\u009f");
    expect(escapeControlCharacters("admin\u202e\u2066txt.exe\u2069\u200f")).toBe("admin\\u202e\\u2066txt.exe\\u2069\\u200f");
  });

  it("returns text with nothing to escape as it is, other Unicode included", () => {
    const text = "tools/call café 世界 🙂 \u00a0\u00ff";
    expect(escapeControlCharacters(text)).toBe(text);
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
    expect(formatLine("error", "failed", { error: errorFields(FORGED) })).toBe(`[mcp] error: failed\n${escapeControlCharacters(FORGED)}`);
    const stackless = Object.assign(new Error(FORGED), { stack: undefined });
    expect(formatLine("error", "failed", { error: errorFields(stackless) }).split("\n")).toHaveLength(2);
  });
});
