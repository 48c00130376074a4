/** Mistakes in a definition fail when its file loads (at start-up), not when a person is waiting. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkParamHeaders } from "../../server/mcp/protocol";
import { defineResource } from "../../utils/define-resource";
import { defineTool } from "../../utils/define-tool";
import { defineForm, elicitForm } from "../../utils/multi-round";

describe("defineForm", () => {
  it("publishes a flat form without zod's redundant extras", () => {
    const form = defineForm({
      email: z.email(),
      count: z.int().min(1),
      ok: z.boolean().default(false),
      pick: z.enum(["a", "b"]),
    });
    expect(form.requestedSchema).toEqual({
      type: "object",
      properties: {
        email: { type: "string", format: "email" },
        count: { type: "integer", minimum: 1 },
        ok: { type: "boolean", default: false },
        pick: { type: "string", enum: ["a", "b"] },
      },
      required: ["email", "count", "pick"],
    });
  });

  it.each([
    ["an array", { tags: z.array(z.string()) }],
    ["a nested object", { address: z.object({ city: z.string() }) }],
    ["a regex", { code: z.string().regex(/^\d+$/) }],
    ["a literal", { kind: z.literal("x") }],
  ])("rejects %s", (_, shape) => expect(() => defineForm(shape as never)).toThrow(/defineForm: field/));

  it("reads back only answers that fit the form", () => {
    const ask = elicitForm("?", defineForm({ n: z.int() }));
    const parse = (raw: unknown) =>
      (ask as unknown as Record<symbol, (raw: unknown) => unknown>)[Symbol.for("mcp-edge-template.parse-answer")]!(raw);
    expect(parse({ action: "accept", content: { n: 3 } })).toEqual({ action: "accept", content: { n: 3 } });
    expect(parse({ action: "accept", content: { n: "3" } })).toBeUndefined();
    expect(parse({ action: "decline" })).toEqual({ action: "decline" });
    expect(parse(12345)).toBeUndefined();
    // The parser rides on a symbol: the wire sees only the request.
    expect(Object.keys(ask)).toEqual(["method", "params"]);
    expect(JSON.parse(JSON.stringify(ask))).toEqual({
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "?",
        requestedSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      },
    });
  });
});

describe("defineTool and defineResource", () => {
  it("rejects an input schema that is not an object", () => {
    expect(() => defineTool({ name: "t", description: "d", input: z.string() as never, run: () => "" })).toThrow(
      /must describe an object/,
    );
  });

  it("rejects an invalid x-mcp-header", () => {
    expect(() =>
      defineTool({
        name: "t",
        description: "d",
        input: { n: z.number().meta({ "x-mcp-header": "N" }) },
        run: () => "",
      }),
    ).toThrow(/invalid x-mcp-header/);
  });

  it("rejects a negative cache ttl", () => {
    expect(() => defineResource({ uri: "a://b", name: "b", cache: { ttlMs: -1 }, read: () => "" })).toThrow(/ttlMs/);
  });
});

describe("Mcp-Param headers for integers", () => {
  const params = [{ header: "N", path: ["n"], type: "integer" as const }];
  const check = (header: string) =>
    checkParamHeaders((name) => (name === "mcp-param-n" ? header : undefined), params, { n: 42 });
  it.each(["42", "42.0", "  42 "])("accepts %j for 42", (header) => expect(() => check(header)).not.toThrow());
  it.each(["0x2A", "4.2e1", "42abc", "43"])("refuses %j for 42", (header) =>
    expect(() => check(header)).toThrow(/Mcp-Param-N/),
  );
});
