/**
 * The layers the folders show, and the one direction of imports between them (server/mcp/README.md, "Extending the
 * core"), read from the import statements of every production file:
 *
 * - the core (`server/mcp`, `server/build`, `server/plugins`, a platform part's folder, the routes of `/mcp`) imports no
 *   feature, no helper, no app code, no store; it reaches the stores only through the `#mcp-stores` module it builds;
 * - everything else reaches the core through its kit, `server/mcp/kit.ts`, and nothing beside it: a store
 *   (`server/storage/<name>`) implements the kit's ports, a feature (`server/features/<name>`, `server/dev`) plugs into
 *   its hooks, the helpers (`utils/`) and the app (`server/tools`, `server/prompts`, `server/resources`,
 *   `server/examples`, their routes) define and answer. Three doors stay open to a feature, each for its own file: its
 *   `settings.ts` declares its settings (`server/mcp/settings`), its `module.ts` adds to the build (`server/build/`), and
 *   its code may read the virtual module its `module.ts` defines;
 * - a feature never imports another feature; a store imports only the kit and the storage files it shares with others;
 * - the core's virtual modules (`#mcp-definitions`, `#mcp-stores`, `#mcp-platform`) are read by the core alone;
 * - the app enters a feature by one door only: the feature's own alias `#mcp-<name>` (package.json `imports`, mapped into
 *   `server/features/<name>/`, e.g. `#mcp-apps`), which the feature's removal takes away with it;
 * - no file outside the helpers calls a helper through Nitro's auto-imports (the core never names one);
 * - no route but `POST /mcp` loads `respond.ts` (the method table) or a method handler (type-only imports, erased at build, aside).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
const KIT = "server/mcp/kit";
const APP = [
  "server/tools/",
  "server/prompts/",
  "server/resources/",
  "server/examples/",
  "server/skills/",
  "server/ui/",
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
  if (file.startsWith("server/storage/")) return "storage";
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

/** The `#` virtual modules a file imports. */
function virtualImportsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(/(?:from\s*|import\s*\(\s*)["'](#[^"']+)["']/g)].map((match) => match[1]!);
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

  it("keeps the core free of features, helpers, app code and stores", () => {
    expect(imports.filter(({ from, to }) => from === "core" && to !== "core").map(describeImport)).toEqual([]);
  });

  it("lets everything else reach the core only through the kit (a feature's settings and build module aside)", () => {
    const door = ({ file, target }: { file: string; target: string }) =>
      target === KIT ||
      (/^server\/features\/[^/]+\/settings\.ts$/.test(file) && target === "server/mcp/settings") ||
      (/^server\/features\/[^/]+\/module\.ts$/.test(file) && target.startsWith("server/build/"));
    expect(
      imports.filter((edge) => edge.from !== "core" && edge.to === "core" && !door(edge)).map(describeImport),
    ).toEqual([]);
  });

  it("lets a store import only the kit and storage, a feature only the kit and itself", () => {
    const wrong = imports.filter(
      ({ from, to }) =>
        (from === "storage" && to !== "core" && to !== "storage") ||
        (from.startsWith("feature:") && to !== "core" && to !== from),
    );
    expect(wrong.map(describeImport)).toEqual([]);
  });

  it("lets the helpers and the app import the kit, the app and (for the app) the helpers only", () => {
    const wrong = imports.filter(
      ({ from, to }) =>
        (from === "helpers" || from === "app") &&
        (to.startsWith("feature:") || to === "storage" || (from === "helpers" && to === "app")),
    );
    expect(wrong.map(describeImport)).toEqual([]);
  });

  it("keeps the core's virtual modules to the core, a feature's to that feature, and its alias to it and the app", () => {
    const owners = new Map<string, string>();
    for (const file of files.filter((file) => /^server\/features\/[^/]+\/module\.ts$/.test(file))) {
      for (const match of readFileSync(join(ROOT, file), "utf8").matchAll(/["'](#mcp-[\w-]+)["']/g)) {
        owners.set(match[1]!, partOf(file));
      }
    }
    // A feature's alias for the app: `#mcp-<name>` in package.json `imports`, mapped to a file of `server/features/<name>/`.
    const { imports: aliases = {} } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const forTheApp = new Set<string>();
    for (const [name, target] of Object.entries(aliases as Record<string, string>)) {
      if (partOf(normalize(target)) !== `feature:${name.slice("#mcp-".length)}`) continue;
      owners.set(name, partOf(normalize(target)));
      forTheApp.add(name);
    }
    const wrong = files.flatMap((file) =>
      virtualImportsOf(file)
        .filter((name) => name.startsWith("#mcp-"))
        .filter((name) => (owners.get(name) ?? "core") !== partOf(file))
        .filter((name) => !(forTheApp.has(name) && partOf(file) === "app"))
        .map((name) => `${file} → ${name}`),
    );
    expect(wrong).toEqual([]);
  });

  it("calls no helper through an auto-import outside the helpers", () => {
    const helpers = files
      .filter((file) => partOf(file) === "helpers")
      .flatMap((file) =>
        [...readFileSync(join(ROOT, file), "utf8").matchAll(/export\s+(?:async\s+)?(?:function|const)\s+(\w+)/g)].map(
          (match) => match[1]!,
        ),
      );
    expect(helpers).toContain("defineTool");
    const outside = files.filter(
      (file) => ["core", "storage"].includes(partOf(file)) || partOf(file).startsWith("feature:"),
    );
    const wrong = outside.flatMap((file) => {
      const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), "utf8"), ts.ScriptTarget.Latest);
      const declared = new Set<string>();
      const called = new Set<string>();
      const visit = (node: ts.Node): void => {
        if (
          (ts.isImportSpecifier(node) || ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node)) &&
          node.name
        )
          declared.add(node.name.getText(source));
        if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) called.add(node.expression.text);
        ts.forEachChild(node, visit);
      };
      visit(source);
      return helpers.filter((name) => called.has(name) && !declared.has(name)).map((name) => `${file} calls ${name}`);
    });
    expect(wrong).toEqual([]);
  });

  it("keeps the method table and the method handlers out of every route but POST /mcp (the front page loads none)", () => {
    const routes = files.filter(
      (file) => /^(routes|server\/features\/[^/]+\/routes)\//.test(file) && file !== "routes/mcp.post.ts",
    );
    expect(routes.length).toBeGreaterThanOrEqual(2); // the core's own: routes/mcp.ts and routes/[...].ts
    const loading = routes.flatMap((route) =>
      [...loadedBy(route)]
        .filter((file) => /^server\/mcp\/(http\/respond|methods\/)/.test(file))
        .map((file) => `${route} → ${file}`),
    );
    expect(loading).toEqual([]);
    expect([...loadedBy("routes/mcp.post.ts")]).toContain("server/mcp/http/respond");
  });
});
