/**
 * Build time: each folder of `server/features/` is a feature and its own scan dir (`featureDirs`), so deleting it removes
 * the feature: its plugins, routes and definitions go with it, its settings' defaults join the runtime config, its
 * `module.ts` (build-time work of its own) runs.
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
    for (const dir of featureDirs(nitro.options.rootDir).map((relative) => join(nitro.options.rootDir, relative))) {
      if (existsSync(join(dir, "settings.ts"))) {
        const { SETTINGS } = (await import(join(dir, "settings.ts"))) as { SETTINGS: SettingTable };
        nitro.options.runtimeConfig.mcp = { ...settingDefaults(SETTINGS), ...nitro.options.runtimeConfig.mcp };
      }
      if (existsSync(join(dir, "module.ts")))
        await ((await import(join(dir, "module.ts"))) as { default: (nitro: Nitro) => void }).default(nitro);
    }
  };
}
