/**
 * The layers the folders show, and the one direction of imports between them (server/mcp/README.md, "Extending the
 * core"), read from the import statements of every production file:
 *
 * - the core (`server/mcp`, `server/build`, `server/plugins`, the routes of `/mcp`) imports no feature, no helper, no app
 *   code; only its start-up plugins reach the storage drivers, which they mount;
 * - the storage drivers (`server/storage`, `server/cloudflare`) import only the core (they implement its store interface);
 * - a feature (`server/features/<name>`, `server/dev`) imports the core and itself, never another feature;
 * - the helpers (`utils/`) and the app (`server/tools`, `server/prompts`, `server/resources`, `server/examples`, their
 *   routes) reach the core only through its barrel, `server/mcp/author.ts`;
 * - no route but `POST /mcp` loads the dispatcher or a method handler (type-only imports, erased at build, aside).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
const APP = [
  "server/tools/",
  "server/prompts/",
  "server/resources/",
  "server/examples/",
  "server/skills/",
  "routes/connect/",
];

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.(ts|mjs)$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Which part a file belongs to: `core`, `storage`, `helpers`, `app`, or `feature:<name>`. */
function partOf(file: string): string {
  const feature = /^server\/features\/([^/]+)\//.exec(file);
  if (feature) return `feature:${feature[1]}`;
  if (file.startsWith("server/dev/")) return "feature:dev";
  if (file.startsWith("server/storage/") || file.startsWith("server/cloudflare/")) return "storage";
  if (file.startsWith("utils/")) return "helpers";
  if (APP.some((prefix) => file.startsWith(prefix))) return "app";
  return "core";
}

/** The project files a file imports (statically, dynamically, or for types unless `values` only), as paths from the root, without extension. */
function importsOf(file: string, values = false): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const statement = values
    ? /(?:^|\n)\s*(?:import|export)(?!\s+type\b)\b[^;'"]*?from\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s+["']([^"']+)["']/g
    : /(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s+["']([^"']+)["']/g;
  const specifiers = [...text.matchAll(statement)].map((match) => match[1] ?? match[2] ?? match[3]!);
  return specifiers
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => normalize(join(dirname(file), specifier)).replace(/\.(ts|mjs)$/, ""));
}

/** Every project file `file` loads at run time, itself included (type-only imports are erased). */
function loadedBy(file: string): Set<string> {
  const loaded = new Set<string>();
  const pending = [file.replace(/\.(ts|mjs)$/, "")];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (loaded.has(next)) continue;
    loaded.add(next);
    const source = [`${next}.ts`, `${next}.mjs`].find((candidate) => files.includes(candidate));
    if (source) pending.push(...importsOf(source, true));
  }
  return loaded;
}

const files = ["server", "routes", "utils"].flatMap(sources);
const imports = files.flatMap((file) =>
  importsOf(file).map((target) => ({ file, target, from: partOf(file), to: partOf(target) })),
);
const describeImport = ({ file, target }: { file: string; target: string }) =>
  `${file} → ${relative(ROOT, join(ROOT, target))}`;

describe("the layers", () => {
  it("finds the production files and their imports", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(imports.length).toBeGreaterThan(100);
  });

  it("keeps the core free of features, helpers and app code; only its start-up plugins reach the storage drivers", () => {
    const wrong = imports.filter(
      ({ file, from, to }) =>
        from === "core" && to !== "core" && !(to === "storage" && file.startsWith("server/plugins/")),
    );
    expect(wrong.map(describeImport)).toEqual([]);
  });

  it("lets the storage drivers import only the core", () => {
    expect(
      imports.filter(({ from, to }) => from === "storage" && to !== "core" && to !== "storage").map(describeImport),
    ).toEqual([]);
  });

  it("lets a feature import only the core and itself", () => {
    expect(
      imports.filter(({ from, to }) => from.startsWith("feature:") && to !== "core" && to !== from).map(describeImport),
    ).toEqual([]);
  });

  it("keeps the dispatcher and the method handlers out of every route but POST /mcp (the front page loads none)", () => {
    const routes = files.filter(
      (file) => /^(routes|server\/features\/[^/]+\/routes)\//.test(file) && file !== "routes/mcp.post.ts",
    );
    expect(routes.length).toBeGreaterThanOrEqual(2); // the core's own: routes/mcp.ts and routes/[...].ts
    const loading = routes.flatMap((route) =>
      [...loadedBy(route)]
        .filter((file) => /^server\/mcp\/(dispatcher|methods\/)/.test(file))
        .map((file) => `${route} → ${file}`),
    );
    expect(loading).toEqual([]);
    expect([...loadedBy("routes/mcp.post.ts")]).toContain("server/mcp/dispatcher");
  });

  it("lets the helpers and the app reach the core only through server/mcp/author.ts", () => {
    const wrong = imports.filter(
      ({ from, to, target }) =>
        (from === "helpers" || from === "app") &&
        ((to === "core" && target.replace(/\.(ts|mjs)$/, "") !== "server/mcp/author") ||
          to.startsWith("feature:") ||
          to === "storage" ||
          (from === "helpers" && to === "app")),
    );
    expect(wrong.map(describeImport)).toEqual([]);
  });
});
