/** One source for configuration: `.env.example` and the configuration table in server/mcp/README.md say what settings.ts declares, no more, no less. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SETTINGS, STORAGE_VARIABLES } from "../../server/mcp/settings";

const shown = (spec: { default: unknown; shownDefault?: string }) => spec.shownDefault ?? (spec.default === "" ? "none" : String(spec.default));
const declared = Object.values(SETTINGS);
const storageNames = STORAGE_VARIABLES.map((variable) => variable.env);

describe(".env.example", () => {
  const lines = readFileSync(".env.example", "utf8").split("\n");
  const assignments = new Map(
    lines.flatMap((line) => {
      const match = /^#?\s?([A-Z][A-Z0-9_]+)=(.*)$/.exec(line);
      return match ? [[match[1]!, match[2]!] as const] : [];
    }),
  );

  it("has a line for every setting, with its default when it has one", () => {
    for (const spec of declared) {
      expect(assignments.has(spec.env), spec.env).toBe(true);
      if (spec.default !== "") expect(assignments.get(spec.env), spec.env).toBe(String(spec.default));
    }
  });

  it("names nothing that is not a setting, a storage variable, HOST or PORT", () => {
    const known = new Set([...declared.map((spec) => spec.env), ...storageNames, "HOST", "PORT"]);
    expect([...assignments.keys()].filter((name) => !known.has(name))).toEqual([]);
  });
});

describe("the core's configuration table (server/mcp/README.md)", () => {
  const readme = readFileSync("server/mcp/README.md", "utf8");
  const section = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 5));
  const rows = new Map(
    [...section.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \| ([^|]+) \|/gm)].map((match) => [match[1]!, match[2]!.trim()] as const),
  );

  it("has a row for every setting and storage variable, with the declared default", () => {
    for (const spec of declared) expect(rows.get(spec.env), spec.env).toBe(shown(spec));
    for (const name of storageNames) expect(rows.has(name), name).toBe(true);
  });

  it("has no row for a variable that does not exist", () => {
    const known = new Set([...declared.map((spec) => spec.env), ...storageNames, "HOST", "PORT"]);
    expect([...rows.keys()].filter((name) => !known.has(name))).toEqual([]);
  });
});
