/**
 * One source for configuration: `.env.example` and the configuration tables (the core's in server/mcp/README.md, each
 * optional feature's in its own README) say what the settings tables declare (server/mcp/settings.ts, and each
 * `server/features/<name>/settings.ts`), no more, no less.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SETTINGS, type SettingTable } from "../../server/mcp/settings";

const shown = (spec: { default: unknown; shownDefault?: string }) =>
  spec.shownDefault ?? (spec.default === "" ? "none" : String(spec.default));
/** What the stores (server/storage/<store>/node.ts) read straight from the environment, besides the settings. */
const storageNames: string[] = [];
// with:files
storageNames.push("NITRO_MCP_STORAGE_DIR");
// end with:files
// with:redis
storageNames.push("REDIS_URL", "UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN");
// end with:redis

/** The core's table and each present feature's, with the README that documents it. */
const tables: { readme: string; table: SettingTable }[] = [{ readme: "server/mcp/README.md", table: SETTINGS }];
for (const name of existsSync("server/features") ? readdirSync("server/features") : []) {
  const file = `server/features/${name}/settings.ts`;
  if (existsSync(file))
    tables.push({
      readme: `server/features/${name}/README.md`,
      table: ((await import(`../../${file}`)) as { SETTINGS: SettingTable }).SETTINGS,
    });
}
const declared = tables.flatMap(({ table }) => Object.values(table));

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

describe.each(tables)("the configuration table in $readme", ({ readme, table }) => {
  const text = readFileSync(readme, "utf8");
  const section = text.slice(
    text.indexOf("## Configuration"),
    text.indexOf("\n## ", text.indexOf("## Configuration") + 5) >>> 0,
  );
  const rows = new Map(
    [...section.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \| ([^|]+) \|/gm)].map(
      (match) => [match[1]!, match[2]!.trim()] as const,
    ),
  );
  const core = table === SETTINGS;

  it("has a row for each of its settings (and, for the core, each storage variable), with the declared default", () => {
    for (const spec of Object.values(table)) expect(rows.get(spec.env), spec.env).toBe(shown(spec));
    if (core) for (const name of storageNames) expect(rows.has(name), name).toBe(true);
  });

  it("has no row for a variable it does not declare", () => {
    const known = new Set([
      ...Object.values(table).map((spec) => spec.env),
      ...(core ? [...storageNames, "HOST", "PORT"] : []),
    ]);
    expect([...rows.keys()].filter((name) => !known.has(name))).toEqual([]);
  });
});
