/** The terminal client's escaping of server strings (server/dev/client/safe-text.mjs); the client end to end is in tests/e2e/client-hostile-server.test.ts. */
import { describe, expect, it } from "vitest";
import { describeLink, isPrintable, safeLines, safeText } from "../../server/dev/client/safe-text.mjs";

describe("safeText and safeLines", () => {
  // Titles name the cases: the raw strings would act on the terminal that shows the test report.
  it.each([
    ["an OSC 52 sequence", "\x1b]52;c;eA==\x07", "\\x1b]52;c;eA==\\x07"],
    ["CR, tab, newline and NUL", "a\rb\tc\nd\0", "a\\rb\\tc\\nd\\x00"],
    ["DEL and C1 controls", "\x7f\u0085\u009b2J", "\\x7f\\x85\\x9b2J"],
    [
      "bidi controls and separators",
      "\u202egnp.exe\u2066\u2069\u200f\u061c\u2028\u2029",
      "\\u202egnp.exe\\u2066\\u2069\\u200f\\u061c\\u2028\\u2029",
    ],
    [
      "printable text, shell syntax included",
      "café, 世界, \u{1F600}, $(x) `y` 'z\" \\",
      "café, 世界, \u{1F600}, $(x) `y` 'z\" \\",
    ],
  ])("safeText: %s", (_, raw, shown) => {
    expect(safeText(raw)).toBe(shown);
    expect(isPrintable(shown)).toBe(true);
  });

  it("safeLines keeps line breaks (LF, CRLF) and escapes the rest, bare CRs included", () => {
    expect(safeLines("one\r\ntwo\nthree\rfour\x1b[2J")).toBe("one\ntwo\nthree\\rfour\\x1b[2J");
  });
});

describe("describeLink", () => {
  it("shows an http(s) link parsed, with its scheme and host spelled out", () => {
    expect(describeLink("https://example.test/step?x=1")).toEqual({
      opens: true,
      shown: "https://example.test/step?x=1 (https, host example.test)",
    });
    // The host is the one after the @, and a look-alike host shows as punycode.
    expect(describeLink("https://bank.example@evil.test/")).toMatchObject({
      shown: expect.stringMatching(/host evil\.test\)$/),
    });
    expect(describeLink("http://exаmple.test/")).toMatchObject({
      opens: true,
      shown: expect.stringContaining("host xn--exmple-4nf.test"),
    });
  });

  it.each([
    [
      "a javascript: link",
      "javascript:alert(1)",
      "a javascript: link, not http or https, do not open it: javascript:alert(1)",
    ],
    ["a file: link", "file:///etc/passwd", "a file: link, not http or https, do not open it: file:///etc/passwd"],
    [
      "a data: link",
      "data:text/html,\x1b[2J",
      "a data: link, not http or https, do not open it: data:text/html,%1B[2J",
    ],
    ["no URL at all", "not a url\n$(x)\x1b", "not a valid URL, do not open it: not a url\\n$(x)\\x1b"],
  ])("never offers %s", (_, url, shown) => expect(describeLink(url)).toEqual({ opens: false, shown }));
});
