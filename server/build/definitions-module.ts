/**
 * Build-time registry of MCP definitions.
 *
 * Every file in the `tools/`, `prompts/` and `resources/` folders of each Nitro scan dir
 * (`server/`; the fixture build adds `tests/fixtures/`) default-exports one definition. A build
 * may name other folders instead with the option `mcp.definitionDirs` (the conformance build
 * serves the suite's fixtures alone). This Nitro module turns those folders into the virtual module
 * `#mcp-definitions`, so adding a tool is "drop a file in the folder": there is no list to edit.
 *
 * The `skills/` folders of the same roots become `#mcp-skills` (see skill-files.ts).
 *
 * In `nitropack dev` the folders are watched: adding or removing a file rebuilds, and so does
 * changing a skill's file.
 */
import { existsSync, readdirSync, watch } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { Nitro } from "nitropack";
import { readSkills } from "./skill-files";

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
  const lines: string[] = [];
  const exports: string[] = [];
  let counter = 0;
  for (const kind of KINDS) {
    const entries: string[] = [];
    for (const root of roots) {
      for (const file of listDefinitionFiles(join(root, kind))) {
        const local = `${kind}_${counter++}`;
        lines.push(`import ${local} from ${JSON.stringify(file)};`);
        entries.push(`[${local}, ${JSON.stringify(relative(rootDir, file))}]`);
      }
    }
    exports.push(`export const ${kind} = [${entries.join(", ")}];`);
  }
  return [...lines, ...exports].join("\n");
}

export function mcpDefinitionsModule() {
  return (nitro: Nitro) => {
    const chosen = (nitro.options as { mcp?: { definitionDirs?: string[] } }).mcp?.definitionDirs;
    const absoluteRoots = chosen ? chosen.map((dir) => resolve(nitro.options.rootDir, dir)) : nitro.options.scanDirs;
    nitro.options.virtual["#mcp-definitions"] = () => generateRegistryModule(nitro.options.rootDir, absoluteRoots);
    nitro.options.virtual["#mcp-skills"] = () => `export const skills = ${JSON.stringify(absoluteRoots.flatMap((root) => readSkills(join(root, "skills"))))};`;

    if (!nitro.options.dev) return;
    const watchers = absoluteRoots
      .flatMap((root) => [...KINDS, "skills"].map((kind) => ({ dir: join(root, kind), recursive: kind === "skills" })))
      .filter(({ dir }) => existsSync(dir))
      .map(({ dir, recursive }) =>
        watch(dir, { recursive }, (event) => {
          if (event === "rename" || recursive) void nitro.hooks.callHook("rollup:reload");
        }),
      );
    nitro.hooks.hook("close", () => watchers.forEach((watcher) => watcher.close()));
  };
}
