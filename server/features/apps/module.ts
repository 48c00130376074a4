/**
 * Build time: each folder of `ui/` in the definition roots (`server/ui/<name>/`, and a test build's fixtures) is built
 * with Vite into one HTML document (build-view.ts); the documents and the folders' `resource.ts` become `#mcp-app-views`,
 * which the plugin this adds (views-plugin.ts) serves as `ui://<name>` resources. `npm run dev` rebuilds when anything in
 * those folders changes.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Nitro } from "nitropack";
import { definitionRoots, watchForReload } from "../../build/definitions-module";
import { buildView } from "./build-view";

/** The UI folders under `dir`: each holds an `index.html`. */
function viewFolders(dir: string): { name: string; dir: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({ name: entry.name, dir: join(dir, entry.name) }))
    .filter((view) => existsSync(join(view.dir, "index.html")))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

async function generateViewsModule(dirs: readonly string[]): Promise<string> {
  const imports: string[] = [];
  const views: string[] = [];
  for (const [index, view] of dirs.flatMap(viewFolders).entries()) {
    const html = await buildView(view.dir);
    const resource = join(view.dir, "resource.ts");
    if (existsSync(resource)) imports.push(`import options${index} from ${JSON.stringify(resource)};`);
    const options = existsSync(resource) ? `options${index}` : "{}";
    views.push(`{ name: ${JSON.stringify(view.name)}, html: ${JSON.stringify(html)}, options: ${options} }`);
  }
  return [...imports, `export const views = [${views.join(", ")}];`].join("\n");
}

export default (nitro: Nitro) => {
  const dirs = definitionRoots(nitro).map((root) => join(root, "ui"));
  nitro.options.virtual["#mcp-app-views"] = () => generateViewsModule(dirs);
  // Just before the feature's own plugin, which checks the tools' links against the UIs served (Nitro lists the scanned
  // plugins before it runs the modules, the core's start-up plugin first).
  const checks = nitro.options.plugins.indexOf(fileURLToPath(new URL("plugins/apps.ts", import.meta.url)));
  if (checks < 0) throw new Error("apps: plugins/apps.ts is not among the build's plugins");
  nitro.options.plugins.splice(checks, 0, fileURLToPath(new URL("views-plugin.ts", import.meta.url)));
  watchForReload(nitro, dirs, true);
};
