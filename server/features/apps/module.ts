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
import { definitionRoots } from "../../build/definitions-module";
import { watchForReload } from "../../build/dev/watch-for-reload";
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

/** Where each view's document is a module of its own, imported on the first read (`#mcp-app-view/<n>`). */
const DOCUMENT_MODULE = "#mcp-app-view/";

/**
 * `#mcp-app-views`: each view's name and `resource.ts`, and a loader of its document, which `documents` holds for the
 * build's own plugin: the start-up does not parse documents no one has asked for yet.
 */
async function generateViewsModule(dirs: readonly string[], documents: Map<string, string>): Promise<string> {
  const imports: string[] = [];
  const views: string[] = [];
  documents.clear();
  for (const [index, view] of dirs.flatMap(viewFolders).entries()) {
    documents.set(`${DOCUMENT_MODULE}${index}`, `export default ${JSON.stringify(await buildView(view.dir))};`);
    const resource = join(view.dir, "resource.ts");
    if (existsSync(resource)) imports.push(`import options${index} from ${JSON.stringify(resource)};`);
    const options = existsSync(resource) ? `options${index}` : "{}";
    const load = `() => import("${DOCUMENT_MODULE}${index}").then((module) => module.default)`;
    views.push(`{ name: ${JSON.stringify(view.name)}, html: ${load}, options: ${options} }`);
  }
  return [...imports, `export const views = [${views.join(", ")}];`].join("\n");
}

/** The build's plugin serving the documents' modules. */
const documentsPlugin = (documents: ReadonlyMap<string, string>) => ({
  name: "mcp-app-documents",
  resolveId: (id: string) => (documents.has(id) ? `\0${id}` : null),
  load: (id: string) => (id.startsWith("\0") ? (documents.get(id.slice(1)) ?? null) : null),
});

export default (nitro: Nitro) => {
  const dirs = definitionRoots(nitro).map((root) => join(root, "ui"));
  const documents = new Map<string, string>();
  nitro.options.virtual["#mcp-app-views"] = () => generateViewsModule(dirs, documents);
  nitro.hooks.hook("rollup:before", (_nitro, config) => {
    config.plugins = [...[config.plugins ?? []].flat(), documentsPlugin(documents)];
  });
  // Just before the feature's own plugin, which checks the tools' links against the UIs served (Nitro lists the scanned
  // plugins before it runs the modules, the core's start-up plugin first).
  const checks = nitro.options.plugins.indexOf(fileURLToPath(new URL("plugins/apps.ts", import.meta.url)));
  if (checks < 0) throw new Error("apps: plugins/apps.ts is not among the build's plugins");
  nitro.options.plugins.splice(checks, 0, fileURLToPath(new URL("views-plugin.ts", import.meta.url)));
  watchForReload(nitro, dirs, true);
};
