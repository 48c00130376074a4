/** Header decoding, x-mcp-header scanning, capability reading, URI templates, cursors, the JSON nesting limit, body reads. */
import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import type { H3Event } from "h3";
import { describe, expect, it } from "vitest";
import { clientCanAnswer, requireClientCapabilities } from "../../server/mcp/capabilities";
import { ErrorCode, McpError } from "../../server/mcp/errors";
import { readBodyText } from "../../server/mcp/http/body";
import { findHeaderParams } from "../../server/mcp/http/header-params";
import { decodeHeaderValue } from "../../server/mcp/protocol";
import { MAX_JSON_DEPTH, parseJsonRpcMessage, type InputRequest } from "../../server/mcp/protocol";
import { paginate } from "../../server/mcp/pagination";
import { compileUriTemplate } from "../../server/mcp/uri-template";

describe("error codes", () => {
  it("are JSON-RPC's, those MCP 2026-07-28 defines, or outside JSON-RPC's reserved range (MCP reserves -32020 to -32099)", () => {
    const defined = new Set([-32700, -32600, -32601, -32602, -32603, -32020, -32021, -32022]);
    for (const [name, code] of Object.entries(ErrorCode)) {
      expect({ name, allowed: defined.has(code) || code > -32000 || code < -32768 }).toEqual({ name, allowed: true });
    }
  });
});

describe("header values", () => {
  it.each([
    ["  us-west1  ", "us-west1"],
    ["\tus-west1", "us-west1"],
    ["us-west1 \t", "us-west1"],
    ["us west 1", "us west 1"],
    ["=?base64?SGVsbG8sIOS4lueVjA==?=", "Hello, 世界"],
    ["=?base64?IHBhZGRlZCA=?=", " padded "],
    ["=?base64?SGVsbG8=", "=?base64?SGVsbG8="],
    ["SGVsbG8=", "SGVsbG8="],
  ])("decodes %j as %j", (raw, decoded) => expect(decodeHeaderValue(raw)).toBe(decoded));

  it.each(["=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?=", "caf\u00e9", "=?base64?/w==?="])("refuses %j", (raw) =>
    expect(decodeHeaderValue(raw)).toBeNull(),
  );
});

describe("x-mcp-header scanning", () => {
  const tool = (properties: object) => ({ type: "object", properties });
  it("finds nested parameters reachable through properties", () => {
    expect(
      findHeaderParams(
        "t",
        tool({ a: { type: "object", properties: { b: { type: "integer", "x-mcp-header": "B" } } } }),
      ),
    ).toEqual([{ header: "B", path: ["a", "b"], type: "integer" }]);
  });
  it.each([
    ["a number parameter", tool({ n: { type: "number", "x-mcp-header": "N" } })],
    [
      "a duplicate (case-insensitive)",
      tool({ a: { type: "string", "x-mcp-header": "X" }, b: { type: "string", "x-mcp-header": "x" } }),
    ],
    ["a non-token name", tool({ a: { type: "string", "x-mcp-header": "Bad Name" } })],
    ["one under items", tool({ list: { type: "array", items: { type: "string", "x-mcp-header": "I" } } })],
    ["one under anyOf", { type: "object", anyOf: [{ properties: { a: { type: "string", "x-mcp-header": "A" } } }] }],
  ])("refuses %s when the tool is defined", (_, schema) =>
    expect(() => findHeaderParams("t", schema)).toThrow(/invalid x-mcp-header/),
  );
});

describe("client capabilities", () => {
  const form: InputRequest = {
    method: "elicitation/create",
    params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } },
  };
  const url = {
    method: "elicitation/create",
    params: { mode: "url", message: "?", url: "https://x" },
  } as unknown as InputRequest;
  const sampling: InputRequest = {
    method: "sampling/createMessage",
    params: { messages: [], maxTokens: 1, includeContext: "thisServer" },
  };
  const roots: InputRequest = { method: "roots/list" };

  it.each([
    [{ elicitation: {} }, form, true],
    [{ elicitation: {} }, url, false],
    [{ elicitation: { url: {} } }, form, false],
    [{ elicitation: { url: {} } }, url, true],
    [{ elicitation: true }, form, false],
    [{ sampling: {} }, sampling, false],
    [{ sampling: { context: {} } }, sampling, true],
    [{ roots: {} }, roots, true],
    [{ roots: "yes" }, roots, false],
  ])("%j answers %j: %s", (declared, request, expected) => expect(clientCanAnswer(declared, request)).toBe(expected));

  it("names every missing capability at once", () => {
    try {
      requireClientCapabilities({ elicitation: { url: {} } }, { a: form, b: sampling, c: roots });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).data).toEqual({
        requiredCapabilities: { elicitation: { form: {} }, sampling: { context: {} }, roots: {} },
      });
      expect((error as McpError).httpStatus).toBe(400);
    }
  });
});

describe("URI templates and cursors", () => {
  it("matches level-1 templates and decodes their variables", () => {
    const template = compileUriTemplate("note://{id}/v/{rev}");
    expect(template.variables).toEqual(["id", "rev"]);
    expect(template.match("note://12/v/3")).toEqual({ id: "12", rev: "3" });
    expect(template.match("note://a%20b/v/1")).toEqual({ id: "a b", rev: "1" });
    expect(template.match("note://12/v/3/x")).toBeNull();
    expect(() => compileUriTemplate("file:///{+path}")).toThrow(/level 1/);
  });

  it("walks every page with opaque cursors bound to their list", () => {
    const items = Array.from({ length: 5 }, (_, i) => i);
    const first = paginate(items, undefined, 2, "tools");
    const second = paginate(items, first.nextCursor, 2, "tools");
    const third = paginate(items, second.nextCursor, 2, "tools");
    expect([...first.items, ...second.items, ...third.items]).toEqual(items);
    expect(third.nextCursor).toBeUndefined();
    expect(() => paginate(items, first.nextCursor, 2, "prompts")).toThrow(McpError);
  });
});

describe("JSON nesting limit", () => {
  const nested = (depth: number, inner = "1") =>
    `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":${"[".repeat(depth - 2)}${inner}${"]".repeat(depth - 2)}}}`;
  const depthError = (text: string) => {
    try {
      parseJsonRpcMessage(text);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };

  it(`accepts ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}`, () => {
    expect(depthError(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(depthError(nested(MAX_JSON_DEPTH + 1))).toMatch(/nested deeper than 64 levels/);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const brackets = JSON.stringify(`\\" ${"[{".repeat(200)}`);
    expect(depthError(nested(MAX_JSON_DEPTH, brackets))).toBeUndefined();
  });
});

describe("request bodies on Node", () => {
  const BODY = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
  const limits = { maxBytes: 1024, timeoutMs: 60_000 };
  /** A request as Node's server hands it over, `buffered` of its body already parsed off the connection. */
  function incoming(buffered: string, headers: Record<string, string> = {}) {
    const request = new IncomingMessage(new Socket());
    request.headers = { "content-length": String(BODY.length), ...headers };
    if (buffered) request.push(Buffer.from(buffered));
    return { request, event: { node: { req: request } } as unknown as H3Event };
  }

  it("takes a body whose every declared byte came with its headers at once, without listening for more", async () => {
    const { request, event } = incoming(BODY);
    expect(await readBodyText(event, limits)).toBe(BODY);
    expect(request.listenerCount("data")).toBe(0);
  });

  it("waits for the rest of a body not whole when read", async () => {
    const { request, event } = incoming(BODY.slice(0, 10));
    const read = readBodyText(event, limits);
    expect(request.listenerCount("data")).toBe(1);
    request.push(Buffer.from(BODY.slice(10)));
    request.push(null);
    expect(await read).toBe(BODY);
  });

  it("answers a whole body from a client already gone as incomplete, without reading it", async () => {
    const { request, event } = incoming(BODY);
    request.destroy();
    await expect(readBodyText(event, limits)).rejects.toMatchObject({ code: ErrorCode.InvalidRequest });
  });

  it("reads a chunked body to its end, even when what came first is as long as a Content-Length beside it", async () => {
    const { request, event } = incoming(BODY, { "transfer-encoding": "chunked" });
    const read = readBodyText(event, limits);
    request.push(Buffer.from(" "));
    request.push(null);
    expect(await read).toBe(`${BODY} `);
  });
});
