/**
 * The Worker's size, for the Cloudflare build: the full template stays under 100 KB gzip (`npm run build:cloudflare`
 * prints it), and that file is what a deploy uploads (`no_bundle`: wrangler would re-bundle it unminified, a quarter
 * heavier). None of these measures changes what the Worker does:
 * - Nitro's minifier compresses in three passes and keeps the names of error classes (an error is named after its class),
 *   no other class's or function's: the source maps uploaded with the Worker (nitro.config.ts) map stack traces back;
 * - one file instead of lazily loaded chunks: a Worker loads its whole bundle at once anyway;
 * - `performance` is workerd's own, not unenv's polyfill;
 * - the MCP SDK's schemas are marked side-effect free, so the few the template validates with stay and the others go
 *   (the SDK builds each with zod calls, which a bundler must otherwise keep);
 * - Nitro's route rules, and the response cache only a route rule turns on, are left out while the build declares
 *   none (nitro.config.ts declares none);
 * - Nitro's `$fetch` (ofetch) is left out while no file of the project mentions it;
 * - `process` is workerd's own (complete since the compatibility date 2025-09-15), not unenv's polyfill wrapped around it.
 */
import { type Dirent, existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Nitro } from "nitropack";
import type { Plugin } from "rollup";

const nitroPackage = createRequire(import.meta.url).resolve("nitropack/package.json");
/** Requires a package as Nitro does, from its own dependencies. */
const requireFromNitro = createRequire(nitroPackage);

/** Nitro's terser plugin, with the options above in place of Nitro's (which keep function names too). */
function replaceMinifier(plugins: Plugin[]): void {
  const index = plugins.findIndex((plugin) => plugin?.name === "terser");
  if (index < 0) return;
  const loaded = requireFromNitro("@rollup/plugin-terser") as { default?: (options: object) => Plugin } & ((
    options: object,
  ) => Plugin);
  plugins[index] = (loaded.default ?? loaded)({
    compress: { passes: 3 },
    mangle: { keep_classnames: /Error$/ },
    format: { comments: false },
  });
}

type AstNode = { type: string; start: number };
const isAstNode = (value: unknown): value is AstNode => typeof (value as AstNode | null)?.type === "string";

/** The start of every call in an expression, except inside functions (which run later, if ever). */
function collectCalls(node: unknown, starts: number[]): void {
  if (!isAstNode(node) || node.type.includes("Function")) return;
  if (node.type === "CallExpression" || node.type === "NewExpression") starts.push(node.start);
  for (const value of Object.values(node))
    for (const child of Array.isArray(value) ? value : [value]) collectCalls(child, starts);
}

/**
 * Marks every call that builds one of the SDK's top-level schemas `/*#__PURE__*\/`, so an unused schema is dropped. Its
 * only effect, a description registered in zod's global registry, is one nothing looks up for a schema nobody uses.
 * (Positions inside the SDK's lines shift: its code is left out of the source maps anyway.)
 */
const SDK_SCHEMAS = /[\\/]@modelcontextprotocol[\\/]core[\\/]dist[\\/]schemas-[^\\/]*\.mjs$/;
const sdkSchemasPure: Plugin = {
  name: "mcp:sdk-schemas-pure",
  transform(code, id) {
    if (!SDK_SCHEMAS.test(id)) return;
    const starts: number[] = [];
    for (const statement of this.parse(code).body) {
      const declaration = statement.type === "ExportNamedDeclaration" ? statement.declaration : statement;
      if (declaration?.type === "VariableDeclaration")
        for (const { init } of declaration.declarations) collectCalls(init, starts);
    }
    const ends = [...starts.sort((a, b) => a - b), code.length];
    return {
      code:
        code.slice(0, ends[0]) + starts.map((start, i) => `/*#__PURE__*/${code.slice(start, ends[i + 1])}`).join(""),
      map: null,
    };
  },
};

/** What Nitro's app imports for route rules, in a build that has none: the rules handler does nothing, and no route is cached. */
const WITHOUT_ROUTE_RULES: Record<string, string> = {
  "./route-rules.mjs":
    "export const createRouteRulesHandler = () => () => {};\nexport const getRouteRulesForPath = () => ({});",
  "./cache.mjs":
    'export const cachedEventHandler = () => { throw new Error("this build left out the response cache: it has no route rules"); };',
};

/** What Nitro's app imports for its global `$fetch`, in a build whose code never calls it. */
const WITHOUT_FETCH: Record<string, string> = {
  ofetch:
    'export const Headers = globalThis.Headers;\nexport const createFetch = () => () => { throw new Error("this build left out $fetch: no file of the project mentions it"); };',
};

/** Whether a file of the project's own code (`server/`, `routes/`, `utils/`; not this folder) mentions `$fetch`. */
function mentionsFetch(rootDir: string): boolean {
  const here = dirname(fileURLToPath(import.meta.url));
  const files = ["server", "routes", "utils"]
    .filter((dir) => existsSync(join(rootDir, dir)))
    .flatMap((dir) => readdirSync(join(rootDir, dir), { recursive: true, withFileTypes: true }));
  const isCode = (file: Dirent) => file.isFile() && file.parentPath !== here && /\.[cm]?[jt]s$/.test(file.name);
  return files.some(
    (file) => isCode(file) && readFileSync(join(file.parentPath, file.name), "utf8").includes("$fetch"),
  );
}

/** Serves `replacements` in place of what Nitro's app imports under those names. */
function replaceAppImports(replacements: Record<string, string>): Plugin {
  const app = join(dirname(nitroPackage), "dist/runtime/internal/app.mjs");
  const prefix = "\0mcp-app-import:";
  return {
    name: "mcp:replace-app-imports",
    // Ahead of Nitro's resolvers, which would find the real files.
    resolveId: {
      order: "pre",
      handler: (source, importer) => (importer === app && source in replacements ? prefix + source : undefined),
    },
    load: (id) => (id.startsWith(prefix) ? replacements[id.slice(prefix.length)] : undefined),
  };
}

/** The first compatibility date whose `nodejs_compat` gives a Worker Node's whole `process`. */
const NATIVE_PROCESS_DATE = "2025-09-15";

export default (nitro: Nitro) => {
  if (!nitro.options.preset.startsWith("cloudflare")) return;
  nitro.options.cloudflare = {
    ...nitro.options.cloudflare,
    wrangler: { ...nitro.options.cloudflare?.wrangler, no_bundle: true },
  };
  nitro.options.unenv.push({ meta: { name: "mcp-worker-performance" }, inject: { performance: false } });
  const date = nitro.options.compatibilityDate;
  if ((date.cloudflare ?? date.default ?? "") >= NATIVE_PROCESS_DATE) {
    const process = fileURLToPath(new URL("worker-process.mjs", import.meta.url));
    // After the preset's own Node compatibility, which it adds just before the build.
    nitro.hooks.hook("build:before", () => {
      nitro.options.unenv.push({ meta: { name: "mcp-worker-process" }, alias: { process, "node:process": process } });
    });
  }
  nitro.hooks.hook("rollup:before", (_, config) => {
    const plugins = config.plugins as Plugin[];
    replaceMinifier(plugins);
    plugins.push(sdkSchemasPure);
    const routeRules = [nitro.options.routeRules, nitro.options.runtimeConfig.nitro?.routeRules ?? {}];
    const withoutRouteRules = routeRules.every((rules) => Object.keys(rules).length === 0);
    plugins.push(
      replaceAppImports({
        ...(withoutRouteRules ? WITHOUT_ROUTE_RULES : {}),
        ...(mentionsFetch(nitro.options.rootDir) ? {} : WITHOUT_FETCH),
      }),
    );
    config.output.inlineDynamicImports = true;
    delete config.output.manualChunks; // Rollup refuses both at once
  });
};
