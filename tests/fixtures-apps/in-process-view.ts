/**
 * The in-process stand-in for the apps feature's build step (its module.ts and views-plugin.ts, which a Nitro build runs):
 * builds `tests/fixtures-apps/ui/<name>/` with the feature's own `buildView` and serves it with its own `viewResource`,
 * so a fixture resource file can register one UI: `export default await inProcessView("fixture-view")`.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildView } from "../../server/features/apps/build-view";
import { viewResource } from "../../server/features/apps/view-resource";

/** Each document is built once per test process: every test server loads its modules afresh, this one included. */
const BUILT = Symbol.for("mcp-edge-template.fixture-views");
const cache = globalThis as { [BUILT]?: Map<string, Promise<string>> };
cache[BUILT] ??= new Map();
const built = cache[BUILT];

export async function inProcessView(name: string) {
  const dir = fileURLToPath(new URL(`ui/${name}/`, import.meta.url));
  if (!built.has(dir)) built.set(dir, buildView(dir));
  const resource = `${dir}resource.ts`;
  const options = existsSync(resource) ? ((await import(resource)) as { default: unknown }).default : {};
  const html = await built.get(dir)!;
  return viewResource({ name, html: async () => html, options: options as object });
}
