/**
 * The layers the folders show, and the one direction of imports between them (server/mcp/README.md, "Extending the
 * core"), read from the import statements of every production file:
 *
 * - the core (`server/mcp`, `server/build`, `server/plugins`, the routes of `/mcp`) imports no feature, no helper, no app
 *   code; only its start-up plugins reach the storage drivers, which they mount;
 * - the storage drivers (`server/storage`, `server/cloudflare`) import only the core (they implement its store interface);
 * - a feature (`server/features/<name>`, `server/dev`) imports the core and itself, never another feature;
 * - the helpers (`utils/`) and the app (`server/tools`, `server/prompts`, `server/resources`, `server/examples`, their
 *   routes) reach the core only through its barrel, `server/mcp/author.ts`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
const APP = ["server/tools/", "server/prompts/", "server/resources/", "server/examples/", "server/skills/", "routes/connect/"];

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

/** The project files a file imports (statically, dynamically, or for types), as paths from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s+["']([^"']+)["']/g)].map(
    (match) => match[1] ?? match[2] ?? match[3]!,
  );
  return specifiers.filter((specifier) => specifier.startsWith(".")).map((specifier) => normalize(join(dirname(file), specifier)));
}

const files = ["server", "routes", "utils"].flatMap(sources);
const imports = files.flatMap((file) => importsOf(file).map((target) => ({ file, target, from: partOf(file), to: partOf(target) })));
const describeImport = ({ file, target }: { file: string; target: string }) => `${file} → ${relative(ROOT, join(ROOT, target))}`;

describe("the layers", () => {
  it("finds the production files and their imports", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(imports.length).toBeGreaterThan(100);
  });

  it("keeps the core free of features, helpers and app code; only its start-up plugins reach the storage drivers", () => {
    const wrong = imports.filter(({ file, from, to }) => from === "core" && to !== "core" && !(to === "storage" && file.startsWith("server/plugins/")));
    expect(wrong.map(describeImport)).toEqual([]);
  });

  it("lets the storage drivers import only the core", () => {
    expect(imports.filter(({ from, to }) => from === "storage" && to !== "core" && to !== "storage").map(describeImport)).toEqual([]);
  });

  it("lets a feature import only the core and itself", () => {
    expect(imports.filter(({ from, to }) => from.startsWith("feature:") && to !== "core" && to !== from).map(describeImport)).toEqual([]);
  });

  it("lets the helpers and the app reach the core only through server/mcp/author.ts", () => {
    const wrong = imports.filter(
      ({ from, to, target }) =>
        (from === "helpers" || from === "app") &&
        ((to === "core" && target !== "server/mcp/author") || to.startsWith("feature:") || to === "storage" || (from === "helpers" && to === "app")),
    );
    expect(wrong.map(describeImport)).toEqual([]);
  });
});
