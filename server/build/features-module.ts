/**
 * Build time: each folder of `server/features/` is a feature and its own scan dir (`featureDirs`), so deleting it removes
 * the feature: its settings' defaults join the runtime config, its `module.ts` runs, its `durable-object.ts` is gathered.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Nitro } from "nitropack";
import { settingDefaults, type SettingTable } from "../mcp/settings";

const FEATURES = "server/features";

/** The features' folders, as scan dirs relative to `rootDir`, in name order. */
export function featureDirs(rootDir: string): string[] {
  const dir = join(rootDir, FEATURES);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${FEATURES}/${entry.name}`)
    .sort();
}

export function mcpFeaturesModule() {
  return async (nitro: Nitro) => {
    const dirs = featureDirs(nitro.options.rootDir);
    for (const dir of dirs.map((relative) => join(nitro.options.rootDir, relative))) {
      if (existsSync(join(dir, "settings.ts"))) {
        const { SETTINGS } = (await import(join(dir, "settings.ts"))) as { SETTINGS: SettingTable };
        nitro.options.runtimeConfig.mcp = { ...settingDefaults(SETTINGS), ...nitro.options.runtimeConfig.mcp };
      }
      if (existsSync(join(dir, "module.ts")))
        await ((await import(join(dir, "module.ts"))) as { default: (nitro: Nitro) => void }).default(nitro);
    }
    nitro.options.virtual["#mcp-features"] =
      `export const features = ${JSON.stringify(dirs.map((dir) => dir.slice(FEATURES.length + 1)))};`;
    const durable = dirs
      .map((dir) => join(nitro.options.rootDir, dir, "durable-object.ts"))
      .filter((file) => existsSync(file));
    nitro.options.virtual["#mcp-durable-methods"] = [
      ...durable.map((file, index) => `import methods${index} from ${JSON.stringify(file)};`),
      `export const durableMethods = [${durable.map((_, index) => `methods${index}`).join(", ")}];`,
    ].join("\n");
  };
}
