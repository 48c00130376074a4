/**
 * The virtual module `#mcp-definitions`: each file in a scan dir's `tools/`, `prompts/`, `resources/` (or `mcp.definitionDirs`)
 * default-exports one definition, so adding a tool is dropping a file in.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { Nitro } from "nitropack";
import { watchForReload } from "./dev/watch-for-reload";

const KINDS = ["tools", "prompts", "resources"] as const;
const SOURCE_FILE = /^[^._].*\.(?:ts|mts|js|mjs)$/;

function listDefinitionFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => SOURCE_FILE.test(file) && !file.endsWith(".d.ts"))
    .sort()
    .map((file) => join(dir, file));
}

/** `export const tools = [[definition, "server/tools/add.ts"], …]`, and the same for prompts and resources. */
function generateRegistryModule(rootDir: string, roots: string[]): string {
  const imports: string[] = [];
  const exports: string[] = [];
  for (const kind of KINDS) {
    const entries: string[] = [];
    for (const file of roots.flatMap((root) => listDefinitionFiles(join(root, kind)))) {
      const local = `${kind}_${imports.length}`;
      imports.push(`import ${local} from ${JSON.stringify(file)};`);
      entries.push(`[${local}, ${JSON.stringify(relative(rootDir, file))}]`);
    }
    exports.push(`export const ${kind} = [${entries.join(", ")}];`);
  }
  return [...imports, ...exports].join("\n");
}

/**
 * The folders definitions (and a feature's build-time content) are read from:
 * `mcp.definitionDirs`, else every scan dir.
 */
export function definitionRoots(nitro: Nitro): string[] {
  // Folders to read definitions from instead of the scan dirs (the conformance build).
  const chosen = (nitro.options as { mcp?: { definitionDirs?: string[] } }).mcp?.definitionDirs;
  return chosen ? chosen.map((dir) => resolve(nitro.options.rootDir, dir)) : nitro.options.scanDirs;
}

export function mcpDefinitionsModule() {
  return (nitro: Nitro) => {
    const roots = definitionRoots(nitro);
    nitro.options.virtual["#mcp-definitions"] = () => generateRegistryModule(nitro.options.rootDir, roots);
    const dirs = roots.flatMap((root) => KINDS.map((kind) => join(root, kind)));
    watchForReload(nitro, dirs, false);
  };
}
